import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, Destination, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { DestinationsAdminPage } from './DestinationsAdminPage';

const user = { uuid: 'u1', name: 'Admin', admin: 1, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;

const destination = (over: Partial<Destination>): Destination => ({
  uuid: 'd1',
  account_id: 'acc',
  name: 'Main PACS',
  aetitle: 'MAIN_PACS',
  address: '10.0.0.5',
  port: 104,
  can_search: 1,
  can_search_mwl: 0,
  can_push: 1,
  c_echo_interval: null,
  last_echo: null,
  calling_aet: null,
  shared_target: 0,
  storage_commitment: 0,
  storage_commitment_timeout: null,
  anonymization_id: null,
  tls: 0,
  tls_ca: null,
  tls_cert: null,
  tls_key_set: 0,
  created: 1,
  updated: 1,
  ...over,
});

function renderPage(admin = true) {
  return renderWithRouter(
    <InboxContext.Provider
      value={{ user: { ...user, admin: admin ? 1 : 0 }, account, permissions: permissionFlags(), groups: [] }}
    >
      <DestinationsAdminPage />
    </InboxContext.Provider>,
  );
}

describe('DestinationsAdminPage', () => {
  let stored: Destination[];
  const added: URLSearchParams[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    added.length = 0;
    stored = [destination({})];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'destination/list': () => [200, { status: 'OK', destinations: stored }],
        'destination/add': (body) => {
          added.push(body);
          if (body.get('aetitle') === 'TAKEN') {
            return [
              412,
              {
                status: 'ERROR',
                error_type: 'INVALID_FIELD',
                error_subtype: 'aetitle',
                error_data: 'is already registered as a DICOM sender',
              },
            ];
          }
          const d = destination({ uuid: 'd2', name: body.get('name')!, aetitle: body.get('aetitle')! });
          stored = [...stored, d];
          return [200, { status: 'OK', ...d }];
        },
        'destination/echo': () => {
          stored = [destination({ last_echo: { ok: false, ms: null, reason: 'connection refused', at: 2 } })];
          return [200, { status: 'OK', ok: false, ms: null, reason: 'connection refused', at: 2 }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('lists destinations, tests one and shows why it failed', async () => {
    renderPage();
    const row = (await screen.findByText('Main PACS')).closest('tr')!;
    expect(within(row).getByText('10.0.0.5:104')).toBeTruthy();
    expect(within(row).getByText('Search, Push')).toBeTruthy();
    fireEvent.click(within(row).getByRole('button', { name: 'Test' }));
    expect(await within(row).findByText('Failed: connection refused')).toBeTruthy();
  });

  it('adds a destination, Search not pre-ticked, checking the form first and showing the server refusal on its field', async () => {
    renderPage();
    await screen.findByText('Main PACS');
    fireEvent.click(screen.getByRole('button', { name: 'Add destination' }));
    const dialog = await screen.findByRole('dialog');
    // Push is offered ticked, Search (C-FIND) is not: a push-only PACS is the common case.
    expect(within(dialog).getByRole('checkbox', { name: 'Search (C-FIND)' })).toHaveProperty(
      'checked',
      false,
    );
    expect(within(dialog).getByRole('checkbox', { name: 'Push (C-STORE)' })).toHaveProperty('checked', true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Name is required')).toBeTruthy();
    expect(added).toHaveLength(0);

    const field = (label: string) => within(dialog).getByLabelText(new RegExp(`^${label}`));
    fireEvent.change(field('Name'), { target: { value: 'Archive' } });
    fireEvent.change(field('AE title'), { target: { value: 'TAKEN' } });
    fireEvent.change(field('Address'), { target: { value: 'pacs.example.org' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('INVALID_FIELD: is already registered as a DICOM sender'),
    ).toBeTruthy();

    fireEvent.change(field('AE title'), { target: { value: 'ARCHIVE' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('Archive')).toBeTruthy();
    expect(Object.fromEntries(added[1]!)).toMatchObject({
      account_id: 'acc',
      name: 'Archive',
      aetitle: 'ARCHIVE',
      address: 'pacs.example.org',
      port: '104',
      can_search: '0',
      can_push: '1',
      can_search_mwl: '0',
    });
  });

  it('tells a non-admin they cannot manage destinations', () => {
    renderPage(false);
    expect(screen.getByText("You don't have enough permissions to manage destinations")).toBeTruthy();
  });
});
