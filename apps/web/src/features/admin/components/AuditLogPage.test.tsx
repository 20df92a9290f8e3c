import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, AuditLogEntry, SessionUser } from '@imaging-inbox/contract';
import { DatePreferencesContext } from '../../../lib/date-preferences';
import { InboxContext } from '../../../session/inbox-context';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { AuditLogPage } from './AuditLogPage';

const me = { uuid: 'u1', name: 'Olivia Officer', admin: 1, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;

const event = (over: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: 1,
  when: '2026-03-04T10:05:00.000Z',
  action: 'LOGIN',
  outcome: 'SUCCESS',
  type: 'session',
  object_id: null,
  user_id: 'u2',
  user_name: 'Vera Viewer',
  user_email: 'viewer@demo.local',
  ip: '10.1.2.3',
  study: null,
  detail: null,
  ...over,
});

function renderPage(granted: string[] | 'all' = 'all') {
  return renderWithRouter(
    <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: 'UTC' }}>
      <InboxContext.Provider value={{ user: me, account, permissions: permissionFlags(granted), groups: [] }}>
        <AuditLogPage />
      </InboxContext.Provider>
    </DatePreferencesContext.Provider>,
  );
}

describe('AuditLogPage', () => {
  const asked: URL[] = [];
  let more: 0 | 1;

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    asked.length = 0;
    more = 1;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'audit/log': (_body, url) => {
          asked.push(url);
          return [
            200,
            {
              status: 'OK',
              events: [
                event({ id: 3, outcome: 'FAILURE', detail: { login: 'viewer@demo.local' } }),
                event({
                  id: 2,
                  action: 'STUDY_VIEW',
                  type: 'study',
                  object_id: 's1',
                  user_id: 'u1',
                  user_name: 'Olivia Officer',
                  user_email: 'officer@demo.local',
                  study: { patient_name: 'DOE^JOHN', description: 'CT CHEST' },
                }),
                event({
                  id: 1,
                  action: 'STUDY_SEARCH',
                  type: 'study',
                  detail: {
                    filters: {
                      'filter.phi_namespace.equals': 'ns-emergency',
                      'filter.patient_name.like': '%DOE%',
                      'filter.study_date.ge': '20260301',
                      'filter.star.equals': '1',
                      'filter.timezone': 'Europe/Paris',
                    },
                    returned: 3,
                  },
                  group_names: { 'ns-emergency': 'Emergency' },
                }),
              ],
              page: { number: 1, rows: 50, more },
            },
          ];
        },
        'account/user/list': () => [
          200,
          {
            status: 'OK',
            users: [{ uuid: 'u2', name: 'Vera Viewer', email: 'viewer@demo.local' }],
            page: { number: 1, rows: 10, total: 1, more: 0 },
          },
        ],
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    sessionStorage.clear();
  });

  it("shows the account's events with time in the user's format, failed sign-ins marked, names readable", async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Audit Log' });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[1]!).getByText('04/03/2026 10:05')).toBeTruthy();
    expect(within(rows[1]!).getByText('Sign-in')).toBeTruthy();
    expect(within(rows[1]!).getByText('Failed')).toBeTruthy();
    expect(within(rows[1]!).getByText('Email: viewer@demo.local')).toBeTruthy();
    expect(within(rows[1]!).getByText('10.1.2.3')).toBeTruthy();
    expect(within(rows[2]!).getByText('Study viewed')).toBeTruthy();
    expect(within(rows[2]!).queryByText('Failed')).toBeNull();
    expect(within(rows[2]!).getByRole('button', { name: 'DOE, JOHN · CT CHEST' })).toBeTruthy();
    expect(screen.queryByText(/DOE\^JOHN/)).toBeNull();
    // A search's filters read in words, its group by name, its days in the user's format.
    expect(
      within(rows[3]!).getByText(
        'Filters: Group is Emergency, Patient name contains DOE, Study date from 01/03/2026, Starred is Yes · 3 results',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/filter\.|ns-emergency/)).toBeNull();
    expect(asked[0]!.searchParams.get('account_id')).toBe('acc');
  });

  it('filters by study, action and time, and exports the same filter as CSV', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'DOE, JOHN · CT CHEST' }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('filter.study_id')).toBe('s1'));
    expect(screen.getByText('Study: DOE, JOHN · CT CHEST')).toBeTruthy();

    const action = screen.getByRole('combobox', { name: 'Action' });
    fireEvent.change(action, { target: { value: 'Sign' } });
    fireEvent.click(await screen.findByRole('option', { name: 'Sign-in' }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('filter.action')).toBe('LOGIN'));

    // From and To are typed in the Profile's date format and read in its time zone (here UTC).
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '01/03/2026' } });
    await waitFor(() =>
      expect(asked.at(-1)!.searchParams.get('filter.from')).toBe(String(Date.parse('2026-03-01T00:00:00Z'))),
    );
    fireEvent.change(screen.getByLabelText('From time'), { target: { value: '08:00' } });
    await waitFor(() =>
      expect(asked.at(-1)!.searchParams.get('filter.from')).toBe(String(Date.parse('2026-03-01T08:00:00Z'))),
    );
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '02/03/2026' } });
    await waitFor(() =>
      expect(asked.at(-1)!.searchParams.get('filter.to')).toBe(
        String(Date.parse('2026-03-02T23:59:59.999Z')),
      ),
    );
    // A time that does not read as HH:MM says so and leaves the bound out.
    fireEvent.change(screen.getByLabelText('To time'), { target: { value: '25:00' } });
    expect(await screen.findByText('Please enter time in HH:MM format')).toBeTruthy();
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('filter.to')).toBeNull());
    fireEvent.change(screen.getByLabelText('To time'), { target: { value: '' } });

    // The CSV is fetched with the sid in the Authorization header: no URL the browser keeps holds it.
    const saved: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push(this);
    });
    URL.createObjectURL = () => 'blob:csv';
    URL.revokeObjectURL = () => undefined;
    const stub = globalThis.fetch;
    const authorization: (string | null)[] = [];
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init?: RequestInit) => {
      authorization.push(new Headers(init?.headers).get('authorization'));
      return stub(input, init);
    });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(screen.queryByRole('link', { name: 'Export CSV' })).toBeNull();
    const csv = asked.at(-1)!;
    expect(csv.pathname).toBe('/api/v3/audit/log');
    expect(csv.searchParams.get('sid')).toBeNull();
    expect(Object.fromEntries(csv.searchParams)).toMatchObject({
      account_id: 'acc',
      format: 'csv',
      'filter.study_id': 's1',
      'filter.action': 'LOGIN',
    });
    expect(authorization.at(-1)).toBe('Bearer S1');
    expect(saved[0]!.download).toBe('audit-log.csv');
    expect(saved[0]!.getAttribute('href')).toBe('blob:csv');

    fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('filter.study_id')).toBeNull());
    expect(asked.at(-1)!.searchParams.get('filter.action')).toBeNull();
  });

  it('filters by a user of the account', async () => {
    renderPage();
    const user = await screen.findByRole('combobox', { name: 'User' });
    fireEvent.change(user, { target: { value: 'Ver' } });
    fireEvent.click(await screen.findByRole('option', { name: /Vera Viewer/ }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('filter.user_id')).toBe('u2'));
  });

  it('pages on while the server says there is more', async () => {
    renderPage();
    await screen.findByRole('table', { name: 'Audit Log' });
    more = 0;
    fireEvent.click(screen.getByRole('button', { name: /next page/i }));
    await waitFor(() => expect(asked.at(-1)!.searchParams.get('page.number')).toBe('2'));
    await waitFor(() =>
      expect(screen.getByRole<HTMLButtonElement>('button', { name: /next page/i }).disabled).toBe(true),
    );
  });

  it('tells someone without audit_view they may not read it, and asks nothing', async () => {
    renderPage(['group_view']);
    expect(await screen.findByText("You don't have enough permissions to read the audit log")).toBeTruthy();
    expect(asked).toEqual([]);
  });
});
