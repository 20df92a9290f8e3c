import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, AccountUser, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { UsersAdminPage } from './UsersAdminPage';
import { DatePreferencesContext } from '../../../lib/date-preferences';

const me = { uuid: 'u1', name: 'Admin', admin: 1, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;

const person = (over: Partial<AccountUser>): AccountUser => ({
  uuid: 'u2',
  name: 'Vera Viewer',
  first_name: 'Vera',
  last_name: 'Viewer',
  email: 'viewer@demo.local',
  last_login: null,
  role: 'user',
  account_role: null,
  enabled: 1,
  invited: 0,
  suspended: 0,
  renamable: 1,
  ...over,
});

function renderPage(granted: string[] | 'all' = 'all') {
  return renderWithRouter(
    <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: 'UTC' }}>
      <InboxContext.Provider value={{ user: me, account, permissions: permissionFlags(granted), groups: [] }}>
        <UsersAdminPage />
      </InboxContext.Provider>
    </DatePreferencesContext.Provider>,
  );
}

describe('UsersAdminPage', () => {
  let users: AccountUser[];
  const calls: { path: string; body: URLSearchParams; url: URL }[] = [];
  let enableFails = false;

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    calls.length = 0;
    enableFails = false;
    users = [
      person({
        uuid: 'u1',
        name: 'Ada Admin',
        email: 'admin@demo.local',
        role: 'admin',
        last_login: 1_700_000_000_000,
      }),
      person({ account_role: { uuid: 'r1', name: 'Clerk' } }),
      person({ uuid: 'u3', name: 'Dan Disabled', email: 'dan@demo.local', enabled: 0 }),
    ];
    const record = (path: string) => (body: URLSearchParams, url: URL) => {
      calls.push({ path, body, url });
      return [200, { status: 'OK' }] as [number, unknown];
    };
    vi.stubGlobal(
      'fetch',
      apiStub({
        'account/user/list': (body, url) => {
          calls.push({ path: 'account/user/list', body, url });
          return [200, { status: 'OK', users, page: { number: 1, rows: 10, total: 31, more: 1 } }];
        },
        'role/list': () => [
          200,
          { status: 'OK', roles: [{ uuid: 'r1', name: 'Clerk', permissions: [], holders: 1 }] },
        ],
        'user/enable': (body, url) => {
          calls.push({ path: 'user/enable', body, url });
          if (enableFails) return [412, { status: 'ERROR', error_type: 'LAST_ADMIN' }];
          return [200, { status: 'OK' }];
        },
        'account/user/delete': record('account/user/delete'),
        'account/user/set': record('account/user/set'),
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it('lists name, email, last login and role, 10 a page by default, sorted by name', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText('Clerk')).toBeTruthy();
    expect(within(table).getByText('Admin')).toBeTruthy();
    expect(within(table).getAllByText('Never')).toHaveLength(2);
    // The last login is written in the user's date format and time zone (Profile), not the browser's.
    expect(within(table).getByText(/^14\/11\/2023 22:13/)).toBeTruthy();
    const list = calls.find((c) => c.path === 'account/user/list')!;
    const params = list.url.searchParams;
    expect(params.get('page.rows')).toBe('10');
    expect(params.get('sort_by')).toBe('name-asc');
    fireEvent.click(screen.getByRole('button', { name: 'Email' }));
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('sort_by')).toBe('email-asc'));
    fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'clerk' } });
    await waitFor(() => expect(calls.at(-1)!.url.searchParams.get('filter')).toBe('clerk'), {
      timeout: 2000,
    });
  });

  it('enables only with a disabled user selected and disables only with an enabled one, with its messages', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Users' });
    const enable = screen.getByRole('button', { name: 'Enable' });
    const disable = screen.getByRole('button', { name: 'Disable' });
    expect((enable as HTMLButtonElement).disabled).toBe(true);
    expect((disable as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByLabelText('Select Vera Viewer'));
    expect((enable as HTMLButtonElement).disabled).toBe(true);
    expect((disable as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(screen.getByLabelText('Select Dan Disabled'));
    expect((enable as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(disable);
    await screen.findByText('Users disabled successfully');
    // Only the enabled one of the selection was sent.
    const sent = calls.filter((c) => c.path === 'user/enable');
    expect(sent.map((c) => [c.body.get('uuid'), c.body.get('disable')])).toEqual([['u2', '1']]);

    enableFails = true;
    fireEvent.click(screen.getByLabelText('Select Dan Disabled'));
    fireEvent.click(screen.getByRole('button', { name: 'Enable' }));
    await screen.findByText('Failed to enable users');
  });

  it('shows a refusal instead of the list to a user without account_user_view or _edit', async () => {
    renderPage(['study_view']);
    await screen.findByText("You don't have enough permissions to manage users");
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('lets a viewer read the list without edit, invite or selection controls', async () => {
    renderPage(['account_user_view']);
    await screen.findByRole('table', { name: 'Users' });
    expect(screen.queryByRole('button', { name: 'Invite user' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Disable' })).toBeNull();
    expect(screen.queryByLabelText('Select Vera Viewer')).toBeNull();
  });

  it('shows who is invited or suspended, and keeps the name of someone from another home account', async () => {
    users = [
      person({ uuid: 'u4', name: 'Ivy Invited', email: 'ivy@partner.example', invited: 1 }),
      person({
        uuid: 'u5',
        name: 'Sam Suspended',
        email: 'sam@partner.example',
        enabled: 0,
        suspended: 1,
        renamable: 0,
        account_role: { uuid: 'r1', name: 'Clerk' },
      }),
    ];
    renderPage();
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByText('Invited')).toBeTruthy();
    expect(within(table).getByText('Suspended')).toBeTruthy();
    expect(within(table).queryByText('Disabled')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Edit Sam Suspended' }));
    const name = await screen.findByLabelText<HTMLInputElement>(/^Name/);
    expect(name.disabled).toBe(true);
    screen.getByText('The name is kept by the account this person belongs to.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some((c) => c.path === 'account/user/set')).toBe(true));
    // Saving never sends a name the account may not change.
    expect(calls.find((c) => c.path === 'account/user/set')!.body.has('name')).toBe(false);
  });
});
