import { PUSH_STATUSES_OF_STATE } from '@imaging-inbox/contract';
import type { StudyFilters } from '@imaging-inbox/contract';
import type { InboxGroup } from './groups';

/** The study/list filters of one state, keyed by the contract's filter vocabulary. */
export type StudyFilterParams = StudyFilters;

/**
 * The study/list filters that make up one study state of one group. Cloud states are scoped to the
 * group's namespace; gatekeeper states follow the nomination and push-status rules; All My Groups
 * searches every namespace of the user. Unknown states and Pending Requests have no study list.
 */
export function stateFilters(group: InboxGroup, state: string): StudyFilterParams | null {
  const ns = { 'filter.phi_namespace.equals': group.namespaceId };
  switch (group.type) {
    case 'ALL':
      return state === 'Inbox' ? { 'filter.phi_namespace.in': JSON.stringify(group.namespaceIds) } : null;
    case 'LIBRARY':
      return state === 'Inbox' ? ns : null;
    case 'CLOUD':
      switch (state) {
        case 'Inbox':
          return ns;
        case 'Shared':
          return { ...ns, 'filter.source.equals': 'share' };
        case 'Shared w/ group':
          return { ...ns, 'filter.has_direct_shares.equals': '1' };
        case 'Deleted items':
          return { ...ns, 'filter.deleted.equals': '1' };
        default:
          return null;
      }
    case 'GATEKEEPER':
      switch (state) {
        case 'Nominations':
          return { ...ns, 'filter.must_approve.equals': '1' };
        case 'Queued':
          return {
            ...ns,
            'filter.must_approve.equals': '0',
            'filter.study_push_status.in': JSON.stringify(PUSH_STATUSES_OF_STATE.queued),
          };
        case 'Rejected':
          return { ...ns, 'filter.study_push_status.in': JSON.stringify(PUSH_STATUSES_OF_STATE.rejected) };
        case 'Completed':
          return { ...ns, 'filter.study_push_status.in': JSON.stringify(PUSH_STATUSES_OF_STATE.completed) };
        case 'Failed':
          return { ...ns, 'filter.study_push_status.in': JSON.stringify(PUSH_STATUSES_OF_STATE.failed) };
        default:
          return null;
      }
  }
}
