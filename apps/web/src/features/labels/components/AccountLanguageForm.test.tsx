import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, SessionUser } from '@imaging-inbox/contract';
import { ACCOUNT_LANGUAGE_MESSAGES } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { LabelsAdminPage } from './LabelsAdminPage';

function renderPage(admin: 0 | 1, settings: Record<string, string>, granted: string[] = []) {
  const account = { uuid: 'acc', name: 'Demo', settings } as unknown as AccountAnswer;
  const me = { uuid: 'u1', name: 'Ada', admin, sysadmin: 0 } as SessionUser;
  return renderWithRouter(
    <InboxContext.Provider value={{ user: me, account, permissions: permissionFlags(granted), groups: [] }}>
      <LabelsAdminPage knownTexts={['Inbox']} />
    </InboxContext.Provider>,
  );
}

describe('the default language of the account on the Labels page', () => {
  let sent: URLSearchParams[];
  let refuse: boolean;

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    sent = [];
    refuse = false;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'label/list': () => [200, { status: 'OK', labels: [] }],
        'account/set': (body) => {
          sent.push(body);
          if (refuse)
            return [
              412,
              {
                status: 'ERROR',
                error_type: 'INVALID_FIELD',
                error_subtype: 'settings.default_language',
                error_data: ACCOUNT_LANGUAGE_MESSAGES.invalid,
              },
            ];
          return [
            200,
            { status: 'OK', settings: { default_language: body.get('settings.default_language') } },
          ];
        },
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  const section = () => screen.getByRole('region', { name: 'Default language of the account' });
  const select = () =>
    within(section()).getByLabelText<HTMLSelectElement>('Default language of the account', {
      selector: 'select',
    });

  it("shows the account's language and saves the admin's choice with account/set", async () => {
    renderPage(1, { default_language: 'es' });
    expect(select().value).toBe('es');
    expect([...select().options].map((o) => o.text)).toEqual([
      'Not chosen (English)',
      'English',
      'Français',
      'Español',
    ]);
    fireEvent.change(select(), { target: { value: 'fr' } });
    expect(sent).toHaveLength(0);
    fireEvent.click(within(section()).getByRole('button', { name: 'Save' }));
    await screen.findByText('Default language saved');
    expect(sent.map((b) => [b.get('uuid'), b.get('settings.default_language')])).toEqual([['acc', 'fr']]);
  });

  it('saves no choice as an empty value, and shows a refusal', async () => {
    renderPage(1, {});
    expect(select().value).toBe('');
    refuse = true;
    fireEvent.click(within(section()).getByRole('button', { name: 'Save' }));
    await within(section()).findByText(ACCOUNT_LANGUAGE_MESSAGES.invalid);
    expect(sent.map((b) => b.get('settings.default_language'))).toEqual(['']);
  });

  it('is not offered to a label editor who is not an account admin', async () => {
    renderPage(0, { default_language: 'fr' }, ['label_edit']);
    await screen.findByText('No labels replaced yet.');
    expect(screen.queryByRole('region', { name: 'Default language of the account' })).toBeNull();
    await waitFor(() => expect(sent).toHaveLength(0));
  });
});
