import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AccountAnswer, PendingRequest, SessionUser } from '@imaging-inbox/contract';
import { InboxContext } from '../../../session/inbox-context';
import { toInboxGroups } from '../../../session/groups';
import { apiStub, renderWithRouter } from '../../../test/render';
import { newGroup, permissionFlags } from '../../../test/factories';
import { PendingRequestsTab } from './PendingRequestsTab';

const account = { uuid: 'acc', name: 'Demo', settings: {} } as unknown as AccountAnswer;
const day = 86_400_000;

const request = (over: Partial<PendingRequest>): PendingRequest => ({
  uuid: 'l1',
  message: null,
  description: 'CT from last week',
  created: Date.now() - day,
  minutes_alive: 7 * 24 * 60,
  email: 'radiology@partner.example',
  url: null,
  namespace_id: 'ns-er',
  namespace_name: 'Emergency',
  hits: 0,
  max_hits: 5,
  mobile_phone: null,
  share_description: null,
  ...over,
});

describe('PendingRequestsTab', () => {
  const calls: { path: string; params: URLSearchParams }[] = [];
  let links: PendingRequest[];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    calls.length = 0;
    links = [request({}), request({ uuid: 'l2', email: 'clinic@example.org', description: null })];
    vi.stubGlobal(
      'fetch',
      apiStub({
        'link/list': (_body, url) => {
          calls.push({ path: 'link/list', params: url.searchParams });
          return [200, { status: 'OK', links, page: { number: 1, rows: 100, total: links.length, more: 0 } }];
        },
        'link/delete': (body) => {
          calls.push({ path: 'link/delete', params: body });
          links = links.filter((l) => l.uuid !== body.get('uuid'));
          return [200, { status: 'OK' }];
        },
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  const renderTab = () => {
    const groups = toInboxGroups([
      newGroup({
        uuid: 'g-er',
        name: 'Emergency',
        namespace_id: 'ns-er',
        permissions: permissionFlags(['link_edit']),
      }),
    ]);
    return renderWithRouter(
      <InboxContext.Provider
        value={{ user: { uuid: 'u1' } as SessionUser, account, permissions: permissionFlags([]), groups }}
      >
        <PendingRequestsTab namespaceId="ns-er" />
      </InboxContext.Provider>,
    );
  };

  it("lists the open requests of the exam's group with their days left, and revokes one", async () => {
    renderTab();
    const table = await screen.findByRole('table', { name: 'Pending Requests' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'radiology@partner.exampleCT from last weekExpires in 6 days✕',
      'clinic@example.orgExpires in 6 days✕',
    ]);
    expect(calls[0]!.params.get('filter.namespace_id.equals')).toBe('ns-er');
    expect(calls[0]!.params.get('account_id')).toBe('acc');

    fireEvent.click(screen.getByRole('button', { name: 'Revoke request to clinic@example.org' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(calls.find((c) => c.path === 'link/delete')!.params.get('uuid')).toBe('l2');
  });

  it('leads to a new request and to the group page of all its requests', async () => {
    renderTab();
    await screen.findByRole('table', { name: 'Pending Requests' });
    expect(screen.getByRole('link', { name: 'Request Study' }).getAttribute('href')).toBe(
      '/study/request/g-er',
    );
    expect(screen.getByRole('link', { name: 'All pending requests of Emergency' }).getAttribute('href')).toBe(
      '/group/g-er/Pending%20Requests',
    );
  });

  it('says when the group has no open request', async () => {
    links = [];
    renderTab();
    expect(await screen.findByText('No pending requests')).toBeTruthy();
  });
});
