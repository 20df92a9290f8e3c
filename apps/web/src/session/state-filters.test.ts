import { describe, expect, it } from 'vitest';
import { newGroup } from '../test/factories';
import { toInboxGroups } from './groups';
import { stateFilters } from './state-filters';

const [library, gatekeeper, cloud, all] = toInboxGroups([
  newGroup({ type: 'CLOUD', namespace_id: 'c1', name: 'C' }),
  newGroup({ type: 'GATEKEEPER', namespace_id: 'g1', name: 'G' }),
  newGroup({ type: 'LIBRARY', namespace_id: 'l1', name: 'L' }),
]);

describe('stateFilters', () => {
  it('maps cloud states', () => {
    expect(stateFilters(cloud!, 'Inbox')).toEqual({ 'filter.phi_namespace.equals': 'c1' });
    expect(stateFilters(cloud!, 'Shared')).toEqual({
      'filter.phi_namespace.equals': 'c1',
      'filter.source.equals': 'share',
    });
    expect(stateFilters(cloud!, 'Shared w/ group')).toEqual({
      'filter.phi_namespace.equals': 'c1',
      'filter.has_direct_shares.equals': '1',
    });
    expect(stateFilters(cloud!, 'Deleted items')).toEqual({
      'filter.phi_namespace.equals': 'c1',
      'filter.deleted.equals': '1',
    });
    expect(stateFilters(cloud!, 'Pending Requests')).toBeNull();
  });

  it('maps gatekeeper states to nomination and push status', () => {
    expect(stateFilters(gatekeeper!, 'Nominations')).toEqual({
      'filter.phi_namespace.equals': 'g1',
      'filter.must_approve.equals': '1',
    });
    expect(stateFilters(gatekeeper!, 'Queued')).toEqual({
      'filter.phi_namespace.equals': 'g1',
      'filter.must_approve.equals': '0',
      'filter.study_push_status.in': '["I","N","P"]',
    });
    expect(stateFilters(gatekeeper!, 'Completed')?.['filter.study_push_status.in']).toBe('["S"]');
    expect(stateFilters(gatekeeper!, 'Failed')?.['filter.study_push_status.in']).toBe('["F"]');
    expect(stateFilters(gatekeeper!, 'Rejected')?.['filter.study_push_status.in']).toBe('["R"]');
  });

  it('maps library Inbox and All My Groups', () => {
    expect(stateFilters(library!, 'Inbox')).toEqual({ 'filter.phi_namespace.equals': 'l1' });
    expect(stateFilters(all!, 'Inbox')).toEqual({ 'filter.phi_namespace.in': '["l1","g1","c1"]' });
  });

  it('has no list for unknown states', () => {
    expect(stateFilters(cloud!, 'Nominations')).toBeNull();
    expect(stateFilters(gatekeeper!, 'Inbox')).toBeNull();
  });
});
