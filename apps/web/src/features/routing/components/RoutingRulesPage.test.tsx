import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, RoutingRule, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import type { InboxGroup } from '../../../session/groups';
import { apiStub, renderWithRouter } from '../../../test/render';
import { permissionFlags } from '../../../test/factories';
import { RoutingRulesPage } from './RoutingRulesPage';

const user = { uuid: 'u1', name: 'Admin', admin: 1, sysadmin: 0 } as SessionUser;
const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;
const cardiology = {
  uuid: 'g-cardio',
  name: 'Cardiology',
  type: 'CLOUD',
  namespaceId: 'ns-cardio',
  namespaceIds: ['ns-cardio'],
  permissions: {},
  states: [],
} as unknown as InboxGroup;

const rule = (over: Partial<RoutingRule>): RoutingRule => ({
  uuid: 'r1',
  account_id: 'acc',
  sequence: 10,
  name: 'CT to Cardiology',
  for: { type: 'sender', id: 'n1' },
  when: ['harvest'],
  match: 'all',
  conditions: [{ field: 'modality', op: 'equals', value: 'CT' }],
  actions: [{ type: 'share_group', group_id: 'g-cardio' }],
  disabled: 0,
  created: 1,
  updated: 1,
  ...over,
});

function renderPage(flags: Record<string, 0 | 1> = {}, admin = true) {
  return renderWithRouter(
    <InboxContext.Provider
      value={{
        user: { ...user, admin: admin ? 1 : 0 },
        account,
        permissions: { ...permissionFlags(), ...flags },
        groups: [cardiology],
      }}
    >
      <RoutingRulesPage />
    </InboxContext.Provider>,
  );
}

describe('RoutingRulesPage', () => {
  let stored: RoutingRule[];
  const calls: [string, URLSearchParams][] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    calls.length = 0;
    stored = [rule({}), rule({ uuid: 'r2', sequence: 20, name: 'Second', for: null, conditions: [] })];
    const record = (path: string) => (body: URLSearchParams) => {
      calls.push([path, body]);
      return [200, { status: 'OK' }] as [number, unknown];
    };
    vi.stubGlobal(
      'fetch',
      apiStub({
        'route/list': () => [200, { status: 'OK', routes: stored }],
        'route/add': record('route/add'),
        'route/set': record('route/set'),
        'route/delete': record('route/delete'),
        'webhook/list': () => [200, { status: 'OK', webhooks: [] }],
        'anonymization/list': () => [200, { status: 'OK', profiles: [] }],
        'dicom/node/list': () => [
          200,
          { status: 'OK', nodes: [{ uuid: 'n1', name: 'Gateway', ae_title: 'GW' }] },
        ],
        'destination/list': () => [200, { status: 'OK', destinations: [] }],
        'connection/list': () => [200, { status: 'OK', connections: [] }],
      }),
    );
  });

  it('lists the rules in order with their target, trigger, conditions and actions in words', async () => {
    renderPage();
    const table = await screen.findByRole('table', { name: 'Routing Rules' });
    const rows = within(table).getAllByRole('row');
    expect(rows[1]!.textContent).toContain('CT to Cardiology');
    expect(rows[1]!.textContent).toContain('Gateway (GW)');
    expect(rows[1]!.textContent).toContain('On harvest from a sender');
    expect(rows[1]!.textContent).toContain('Modality equals "CT"');
    expect(rows[1]!.textContent).toContain('Share to a group: Cardiology');
    expect(rows[2]!.textContent).toContain('Every exam');
    expect(rows[2]!.textContent).toContain('Always');
  });

  it('moves a rule down by exchanging sequence numbers, and deletes after confirming', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Move CT to Cardiology down' }));
    await waitFor(() => expect(calls.filter(([p]) => p === 'route/set')).toHaveLength(2));
    const sets = calls.map(([, b]) => `${b.get('uuid')}=${b.get('sequence')}`).sort();
    expect(sets).toEqual(['r1=20', 'r2=10']);
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Second' }));
    await waitFor(() =>
      expect(calls.some(([p, b]) => p === 'route/delete' && b.get('uuid') === 'r2')).toBe(true),
    );
  });

  it('refuses a regex that repeats too much before sending, then adds the rule', async () => {
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Add routing rule' }));
    fireEvent.change(screen.getByRole('textbox', { name: 'Name' }), { target: { value: 'Chest' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add condition' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Operator' }));
    fireEvent.click(await screen.findByRole('option', { name: 'matches regex' }));
    const value = screen.getByRole('textbox', { name: 'Value' });
    fireEvent.change(value, { target: { value: '(.{1,50}){3}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(document.body.textContent).toMatch(/repeats too much/));
    expect(calls.filter(([p]) => p === 'route/add')).toHaveLength(0);
    fireEvent.change(value, { target: { value: '^chest' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Target' }));
    fireEvent.click(await screen.findByRole('option', { name: 'Cardiology' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.some(([p]) => p === 'route/add')).toBe(true));
    const body = calls.find(([p]) => p === 'route/add')![1];
    expect(body.get('name')).toBe('Chest');
    expect(JSON.parse(body.get('conditions')!)).toEqual([
      { field: 'modality', op: 'regex', value: '^chest' },
    ]);
    expect(JSON.parse(body.get('actions')!)).toEqual([{ type: 'share_group', group_id: 'g-cardio' }]);
    expect(body.get('when')).toBe('upload,harvest');
  });

  it('tells a member without route permissions they may not see the rules', () => {
    renderPage({ route_view: 0, route_edit: 0 }, false);
    expect(screen.getByText("You don't have enough permissions to see routing rules")).toBeTruthy();
  });
});
