import { describe, expect, it } from 'vitest';
import { newGroup, permissionFlags } from '../test/factories';
import { allowsMultiSelect, studyStates, toInboxGroups } from './groups';

describe('toInboxGroups', () => {
  it('orders Library, Gatekeeper, Cloud, each by name, then All My Groups with uuid 0', () => {
    const groups = toInboxGroups([
      newGroup({ name: 'Emergency', type: 'CLOUD', namespace_id: 'n1' }),
      newGroup({ name: 'Cardiology', type: 'CLOUD', namespace_id: 'n2' }),
      newGroup({ name: 'Teaching Files', type: 'LIBRARY', namespace_id: 'n3' }),
      newGroup({ name: 'PACS Intake', type: 'GATEKEEPER', namespace_id: 'n4' }),
    ]);
    expect(groups.map((g) => g.name)).toEqual([
      'Teaching Files',
      'PACS Intake',
      'Cardiology',
      'Emergency',
      'All My Groups',
    ]);
    const all = groups.at(-1);
    expect(all?.uuid).toBe('0');
    expect(all?.namespaceIds).toEqual(['n3', 'n4', 'n2', 'n1']);
  });

  it('has no All My Groups when the user has no group', () => {
    expect(toInboxGroups([])).toEqual([]);
  });
});

describe('studyStates', () => {
  it('gives cloud groups Pending Requests only with link_edit', () => {
    expect(studyStates('CLOUD', permissionFlags())).toEqual([
      'Inbox',
      'Shared',
      'Shared w/ group',
      'Deleted items',
      'Pending Requests',
    ]);
    expect(studyStates('CLOUD', permissionFlags(['study_view']))).not.toContain('Pending Requests');
  });
  it('gives gatekeeper groups the nomination states', () => {
    expect(studyStates('GATEKEEPER', permissionFlags())).toEqual([
      'Nominations',
      'Queued',
      'Rejected',
      'Completed',
      'Failed',
    ]);
  });
  it('allows multi-select in cloud and library groups only', () => {
    expect(allowsMultiSelect('CLOUD')).toBe(true);
    expect(allowsMultiSelect('LIBRARY')).toBe(true);
    expect(allowsMultiSelect('GATEKEEPER')).toBe(false);
    expect(allowsMultiSelect('ALL')).toBe(false);
  });
});
