import { describe, expect, it } from 'vitest';
import { newGroup } from '../test/factories';
import { toInboxGroups } from './groups';
import { resolveGroupRoute } from './group-route';

const groups = toInboxGroups([
  newGroup({ uuid: 'cloud-1', name: 'Emergency', type: 'CLOUD' }),
  newGroup({ uuid: 'lib-1', name: 'Teaching Files', type: 'LIBRARY' }),
]);

describe('resolveGroupRoute', () => {
  it('shows the first state of the first group on /group/list, highlighted', () => {
    const r = resolveGroupRoute(groups, undefined, undefined);
    expect(r).toMatchObject({ kind: 'show', state: 'Inbox', highlighted: true });
    expect(r.kind === 'show' && r.group.uuid).toBe('lib-1');
  });
  it('redirects a group without state to its first state', () => {
    expect(resolveGroupRoute(groups, 'cloud-1', undefined)).toEqual({
      kind: 'redirect',
      to: '/group/cloud-1/Inbox',
    });
  });
  it('redirects an unknown state to the group first state', () => {
    expect(resolveGroupRoute(groups, 'cloud-1', 'Nominations')).toEqual({
      kind: 'redirect',
      to: '/group/cloud-1/Inbox',
    });
  });
  it('redirects an unknown group to the first state of the first group', () => {
    expect(resolveGroupRoute(groups, 'nope', 'Inbox')).toEqual({
      kind: 'redirect',
      to: '/group/lib-1/Inbox',
    });
  });
  it('encodes state names with spaces', () => {
    expect(resolveGroupRoute(groups, 'cloud-1', 'Shared w/ group')).toMatchObject({
      kind: 'show',
      state: 'Shared w/ group',
    });
  });
  it('shows a known state unhighlighted', () => {
    expect(resolveGroupRoute(groups, 'cloud-1', 'Shared')).toMatchObject({
      kind: 'show',
      highlighted: false,
    });
  });
  it('is empty without groups', () => {
    expect(resolveGroupRoute([], undefined, undefined)).toEqual({ kind: 'empty' });
  });
});
