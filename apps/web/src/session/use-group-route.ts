import { useMemo } from 'react';
import { matchPath, useLocation } from 'react-router';
import { decodePathSegments } from '../lib/paths';
import { useInbox } from './inbox-context';
import { resolveGroupRoute, type GroupRouteResolution } from './group-route';

/** Reads /group/list, /group/:groupId and /group/:groupId/:stateName from any component. */
export function useGroupRoute(): GroupRouteResolution | null {
  const location = useLocation();
  const pathname = decodePathSegments(location.pathname);
  const { groups } = useInbox();
  return useMemo(() => {
    if (matchPath('/group/list', pathname)) return resolveGroupRoute(groups, undefined, undefined);
    const withState = matchPath('/group/:groupId/:stateName', pathname);
    if (withState) return resolveGroupRoute(groups, withState.params.groupId, withState.params.stateName);
    const groupOnly = matchPath('/group/:groupId', pathname);
    if (groupOnly) return resolveGroupRoute(groups, groupOnly.params.groupId, undefined);
    return null;
  }, [groups, pathname]);
}
