import { notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/access.js';
import { groupsWith, requireGroup } from '../../policies/groups.js';

/** Request-study links: made, listed and revoked by members with link_edit in the link's group. */

/** The group a new link is for: NOT_FOUND outside the caller's groups, NOT_PERMITTED without link_edit. */
export function requireLinkGroup(caller: Caller, namespaceId: string) {
  return requireGroup(caller, namespaceId, 'link_edit');
}

/** Namespaces whose links the caller may list. */
export function linkNamespaces(caller: Caller): string[] {
  return groupsWith(caller, 'link_edit').map((g) => g.namespaceId);
}

/** A link the caller may revoke; one they may not answers NOT_FOUND `link`, as a made-up one does. */
export function requireManagedLink<T extends { namespace_id: string }>(
  caller: Caller,
  link: T | undefined,
): T {
  if (!link || !caller.groups.get(link.namespace_id)?.permissions.has('link_edit')) throw notFound('link');
  return link;
}

/**
 * What a link grant (the outside party who unlocked a link) may do: upload into the link's group,
 * nothing else. Expiry and revocation are the grant's resolution (LinkAccessService.authorizeUpload).
 */
export function grantMayUploadTo(link: { namespace_id: string }, namespaceId: string): boolean {
  return link.namespace_id === namespaceId;
}
