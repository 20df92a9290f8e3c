import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { AdminGroup, GroupMember, Role } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { GroupMembers } from './GroupMembers';

const group: AdminGroup = {
  uuid: 'g1',
  account_id: 'acc',
  namespace_id: 'ns1',
  name: 'Emergency',
  type: 'CLOUD',
  members: 2,
  studies: 0,
};
const roles: Role[] = [
  { uuid: 'r1', account_id: 'acc', name: 'Radiologist', permissions: ['study_view'], holders: 1 },
];
const members: GroupMember[] = [
  {
    uuid: 'u1',
    name: 'Claire Clinician',
    email: 'clinician@demo.local',
    role: { uuid: 'r1', name: 'Radiologist' },
    permissions: ['study_view'],
  },
  { uuid: 'u2', name: 'Vera Viewer', email: 'viewer@demo.local', role: null, permissions: ['study_view'] },
];

describe('GroupMembers', () => {
  const removed: URLSearchParams[] = [];
  beforeEach(() => {
    removed.length = 0;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'group/user/list': () => [
          200,
          { status: 'OK', users: members, page: { number: 1, rows: 100, more: 0 } },
        ],
        'account/user/list': () => [
          200,
          { status: 'OK', users: [], page: { number: 1, rows: 100, total: 0, more: 0 } },
        ],
        'group/user/delete': (body) => {
          removed.push(body);
          return [200, { status: 'OK' }];
        },
      }),
    );
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('lists the members in the shared admin table, with their role to change and a remove button', async () => {
    renderWithRouter(<GroupMembers group={group} roles={roles} mayEdit />);
    const table = await screen.findByRole('table', { name: 'Members of Emergency' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Name', 'Email', 'Role', 'Actions']);
    expect(within(table).getByRole('combobox', { name: 'Role of Claire Clinician' })).toBeTruthy();
    fireEvent.click(within(table).getByRole('button', { name: 'Remove Vera Viewer from the group' }));
    await waitFor(() => expect(removed).toHaveLength(1));
    expect(Object.fromEntries(removed[0]!)).toMatchObject({ uuid: 'g1', user_id: 'u2' });
  });

  it('shows the roles as text and no buttons to someone who may not edit the group', async () => {
    renderWithRouter(<GroupMembers group={group} roles={roles} mayEdit={false} />);
    const table = await screen.findByRole('table', { name: 'Members of Emergency' });
    expect(within(table).getByText('Radiologist')).toBeTruthy();
    expect(within(table).getByText('Own permissions (1)')).toBeTruthy();
    expect(within(table).queryAllByRole('button')).toEqual([]);
    expect(within(table).queryByRole('columnheader', { name: 'Actions' })).toBeNull();
  });
});
