import type { Permission } from '@imaging-inbox/contract';
import { useInbox } from './inbox-context';
import type { InboxGroup } from './groups';

export type GroupAccess = { kind: 'not-found' } | { kind: 'forbidden' } | { kind: 'ok'; group: InboxGroup };

/** Whether the routed group exists (cloud groups only) and grants the permission a page needs. */
export function useGroupPermission(groupId: string | undefined, permission: Permission): GroupAccess {
  const { groups } = useInbox();
  const group = groups.find((g) => g.uuid === groupId && g.type === 'CLOUD');
  if (!group) return { kind: 'not-found' };
  return group.permissions[permission] === 1 ? { kind: 'ok', group } : { kind: 'forbidden' };
}
