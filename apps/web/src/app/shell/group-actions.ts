import type { Permission } from '@imaging-inbox/contract';
import type { InboxGroup } from '../../session/groups';

export interface GroupAction {
  label: string;
  route: string;
  permission: Permission;
}

/** Cloud-group action buttons and the permission each needs (SPEC.md sections 2 and 6). */
export const CLOUD_GROUP_ACTIONS: GroupAction[] = [
  { label: 'Request Study', route: '/study/request/:group_id', permission: 'link_edit' },
  { label: 'Retrieve Study', route: '/study/retrieve/:group_id', permission: 'destination_search' },
];

/** The actions a group shows, with :group_id replaced; only cloud groups have any. */
export function groupActions(group: InboxGroup): GroupAction[] {
  if (group.type !== 'CLOUD') return [];
  return CLOUD_GROUP_ACTIONS.filter((a) => group.permissions[a.permission] === 1).map((a) => ({
    ...a,
    route: a.route.replace(':group_id', encodeURIComponent(group.uuid)),
  }));
}
