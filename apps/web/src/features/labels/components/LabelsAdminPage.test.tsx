import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, LabelOverride, SessionUser } from '@imaging-inbox/contract';
import { LABEL_MESSAGES } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { LabelsAdminPage } from './LabelsAdminPage';

const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;

function renderPage(admin: 0 | 1, granted: string[] = []) {
  const me = { uuid: 'u1', name: 'Ada', admin, sysadmin: 0 } as SessionUser;
  return renderWithRouter(
    <InboxContext.Provider value={{ user: me, account, permissions: permissionFlags(granted), groups: [] }}>
      <LabelsAdminPage knownTexts={['Inbox', 'Shared with me']} />
    </InboxContext.Provider>,
  );
}

describe('LabelsAdminPage', () => {
  let labels: LabelOverride[];
  let refuseNext: string | null;
  const sent: { path: string; body: URLSearchParams }[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    sent.length = 0;
    refuseNext = null;
    labels = [{ language: 'fr', key: 'Inbox', text: 'Arrivées' }];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'label/list': () => [200, { status: 'OK', labels }],
        'label/set': (body) => {
          sent.push({ path: 'label/set', body });
          if (refuseNext) {
            const error_data = refuseNext;
            refuseNext = null;
            return [412, { status: 'ERROR', error_type: 'INVALID_FIELD', error_subtype: 'key', error_data }];
          }
          const label = { language: body.get('language'), key: body.get('key'), text: body.get('text') };
          labels = [
            ...labels.filter((l) => l.language !== label.language || l.key !== label.key),
            label as LabelOverride,
          ];
          return [200, { status: 'OK', label }];
        },
        'label/delete': (body) => {
          sent.push({ path: 'label/delete', body });
          labels = labels.filter((l) => l.language !== body.get('language') || l.key !== body.get('key'));
          return [200, { status: 'OK' }];
        },
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('lists the overrides with the language by name, the original and the replacement', async () => {
    renderPage(1);
    const table = await screen.findByRole('table', { name: 'Labels' });
    const row = within(table).getByText('Arrivées').closest('tr')!;
    expect(within(row).getByText('Français')).toBeTruthy();
    expect(within(row).getByText('Inbox')).toBeTruthy();
  });

  it('adds an override with the language, original text and replacement it was given', async () => {
    renderPage(1);
    await screen.findByRole('table', { name: 'Labels' });
    fireEvent.click(screen.getByRole('button', { name: 'Add label' }));
    const dialog = await screen.findByRole('dialog');
    const save = within(dialog).getByRole<HTMLButtonElement>('button', { name: 'Save' });
    expect(save.disabled).toBe(true);
    // The known texts are offered while typing the original.
    expect(document.querySelectorAll('#label-known-texts option')).toHaveLength(2);
    fireEvent.change(within(dialog).getByLabelText('Original text'), {
      target: { value: ' Shared with me ' },
    });
    fireEvent.change(within(dialog).getByLabelText('Replacement'), { target: { value: 'For me' } });
    fireEvent.click(save);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const body = sent.find((c) => c.path === 'label/set')!.body;
    expect([body.get('account_id'), body.get('language'), body.get('key'), body.get('text')]).toEqual([
      'acc',
      'en',
      'Shared with me',
      'For me',
    ]);
    await screen.findByText('For me');
  });

  it('edits a replacement, keeping its language and original, and shows a refusal', async () => {
    renderPage(1);
    await screen.findByText('Arrivées');
    fireEvent.click(screen.getByRole('button', { name: 'Edit Inbox' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Original text').disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Replacement'), { target: { value: 'Reçus' } });
    refuseNext = LABEL_MESSAGES.tooMany;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await within(dialog).findByText(LABEL_MESSAGES.tooMany);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('Reçus');
    expect(sent.at(-1)!.body.get('language')).toBe('fr');
  });

  it('deletes an override after confirmation', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderPage(0, ['label_edit']);
    await screen.findByText('Arrivées');
    fireEvent.click(screen.getByRole('button', { name: 'Delete Inbox' }));
    await screen.findByText('No labels replaced yet.');
    expect(sent.map((c) => [c.path, c.body.get('language'), c.body.get('key')])).toEqual([
      ['label/delete', 'fr', 'Inbox'],
    ]);
  });

  it('refuses the page to a member without label_edit', async () => {
    renderPage(0, ['study_view']);
    await screen.findByText("You don't have enough permissions to change labels");
    expect(screen.queryByRole('table')).toBeNull();
  });
});
