import type { InboxGroup } from './groups';

export type GroupRouteResolution =
  | { kind: 'empty' }
  | { kind: 'redirect'; to: string }
  | { kind: 'show'; group: InboxGroup; state: string; highlighted: boolean };

export function statePath(group: InboxGroup, state: string): string {
  return `/group/${encodeURIComponent(group.uuid)}/${encodeURIComponent(state)}`;
}

/**
 * What a /group route shows. /group/list shows the first state of the first group, highlighted
 * until the user picks one. A group without a state (or with an unknown one) redirects to its first
 * state; an unknown group redirects to the first state of the first group.
 */
export function resolveGroupRoute(
  groups: InboxGroup[],
  groupId: string | undefined,
  stateName: string | undefined,
): GroupRouteResolution {
  const first = groups[0];
  if (!first) return { kind: 'empty' };
  const firstState = first.states[0] ?? 'Inbox';
  if (groupId === undefined) return { kind: 'show', group: first, state: firstState, highlighted: true };
  const group = groups.find((g) => g.uuid === groupId);
  if (!group) return { kind: 'redirect', to: statePath(first, firstState) };
  if (stateName === undefined || !group.states.includes(stateName)) {
    return { kind: 'redirect', to: statePath(group, group.states[0] ?? 'Inbox') };
  }
  return { kind: 'show', group, state: stateName, highlighted: false };
}
