export const GROUP_TYPES = ['CLOUD', 'GATEKEEPER', 'LIBRARY'] as const;
export type GroupType = (typeof GROUP_TYPES)[number];

/** The synthetic group that stands for every group of the user. */
export const ALL_MY_GROUPS = { uuid: '0', name: 'All My Groups' } as const;

export const CLOUD_STUDY_STATES = [
  'Inbox',
  'Shared',
  'Shared w/ group',
  'Deleted items',
  'Pending Requests',
] as const;
export const GATEKEEPER_STUDY_STATES = ['Nominations', 'Queued', 'Rejected', 'Completed', 'Failed'] as const;
export const LIBRARY_STUDY_STATES = ['Inbox'] as const;

/** Library first, then Gatekeeper, then Cloud; each by name (SPEC section 2). */
export const GROUP_TYPE_ORDER: Record<GroupType, number> = { LIBRARY: 0, GATEKEEPER: 1, CLOUD: 2 };

/** The name of a user's personal group: the studies shared with them personally. */
export const PERSONAL_GROUP_NAME = 'Shared with me';
