import { describe, expect, it } from 'vitest';
import { toInboxGroups } from '../../session/groups';
import { newGroup, permissionFlags } from '../../test/factories';
import { groupActions } from './group-actions';

describe('groupActions', () => {
  it('gives cloud groups the actions their permissions allow, with the group id', () => {
    const [cloud] = toInboxGroups([
      newGroup({ uuid: 'c 1', type: 'CLOUD', permissions: permissionFlags(['link_edit']) }),
    ]);
    expect(groupActions(cloud!)).toEqual([
      { label: 'Request Study', route: '/study/request/c%201', permission: 'link_edit' },
    ]);
  });
  it('gives other groups none', () => {
    const [library] = toInboxGroups([newGroup({ type: 'LIBRARY' })]);
    expect(groupActions(library!)).toEqual([]);
  });
});
