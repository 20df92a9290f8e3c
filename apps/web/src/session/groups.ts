import {
  ALL_MY_GROUPS,
  CLOUD_STUDY_STATES,
  GATEKEEPER_STUDY_STATES,
  GROUP_TYPE_ORDER,
  LIBRARY_STUDY_STATES,
  type GroupSummary,
  type GroupType,
  type PermissionFlags,
} from '@imaging-inbox/contract';
import { t } from '../lib/i18n';

export type InboxGroupType = GroupType | 'ALL';

/** A group as the inbox shows it: its study states and the namespaces it searches. */
export interface InboxGroup {
  uuid: string;
  name: string;
  type: InboxGroupType;
  namespaceId: string;
  /** Every namespace searched: one for a real group, all of them for All My Groups. */
  namespaceIds: string[];
  permissions: Partial<PermissionFlags>;
  states: string[];
}

export const PENDING_REQUESTS = 'Pending Requests';
export const ALL_GROUPS_STATES = ['Inbox'] as const;

/** Study states of a group; Pending Requests only for cloud groups with link_edit. */
export function studyStates(type: GroupType, permissions: Partial<PermissionFlags>): string[] {
  switch (type) {
    case 'CLOUD':
      return CLOUD_STUDY_STATES.filter((s) => s !== PENDING_REQUESTS || permissions.link_edit === 1);
    case 'GATEKEEPER':
      return [...GATEKEEPER_STUDY_STATES];
    case 'LIBRARY':
      return [...LIBRARY_STUDY_STATES];
  }
}

/**
 * The accordion's groups: Library, then Gatekeeper, then Cloud, each sorted by name (SPEC.md
 * section 2), followed by the synthetic All My Groups (uuid 0) that searches every namespace.
 */
export function toInboxGroups(groups: GroupSummary[]): InboxGroup[] {
  const sorted = [...groups].sort(
    (a, b) => GROUP_TYPE_ORDER[a.type] - GROUP_TYPE_ORDER[b.type] || a.name.localeCompare(b.name),
  );
  const real: InboxGroup[] = sorted.map((g) => ({
    uuid: g.uuid,
    name: g.name,
    type: g.type,
    namespaceId: g.namespace_id,
    namespaceIds: [g.namespace_id],
    permissions: g.permissions,
    states: studyStates(g.type, g.permissions),
  }));
  if (real.length === 0) return real;
  const all: InboxGroup = {
    uuid: ALL_MY_GROUPS.uuid,
    name: ALL_MY_GROUPS.name,
    type: 'ALL',
    namespaceId: ALL_MY_GROUPS.uuid,
    namespaceIds: real.map((g) => g.namespaceId),
    permissions: {},
    states: [...ALL_GROUPS_STATES],
  };
  return [...real, all];
}

/** Multi-select exists in cloud and library groups only. */
export function allowsMultiSelect(type: InboxGroupType): boolean {
  return type === 'CLOUD' || type === 'LIBRARY';
}

/** A group's name as shown: the synthetic All My Groups is a product label, translated; others are data. */
export function groupDisplayName(group: { uuid: string; name: string }): string {
  return group.uuid === ALL_MY_GROUPS.uuid ? t(ALL_MY_GROUPS.name) : group.name;
}
