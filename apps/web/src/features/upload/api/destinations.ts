import { useQuery } from '@tanstack/react-query';
import type { GroupSummary, PermissionFlags } from '@imaging-inbox/contract';
import { groupListQuery } from '../../../session/api/list-groups';
import { useInbox } from '../../../session/inbox-context';

/** Upload destinations: cloud groups where the user has study_upload (SPEC.md section 6). */
export function uploadDestinations<G extends { type: string; permissions: Partial<PermissionFlags> }>(
  groups: readonly G[],
): G[] {
  return groups.filter((g) => g.type === 'CLOUD' && g.permissions.study_upload === 1);
}

/** The destinations, or null while the group list loads. */
export function useUploadDestinations(): GroupSummary[] | null {
  const { account } = useInbox();
  const groups = useQuery(groupListQuery(account.uuid));
  return groups.data ? uploadDestinations(groups.data.groups) : null;
}
