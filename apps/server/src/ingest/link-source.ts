/**
 * How a file that came through a request link is recorded, whichever way it came (the single-request
 * upload, a resumable upload session, or documents wrapped on the link page): its study names the
 * source AE `LINK` (the inbox shows where an exam came from by that) and its audit events the source
 * kind `link`. Spelled here once so the three ways cannot drift apart.
 */
import type { IndexTarget } from '../repositories/ingest.repository.js';

export const LINK_SOURCE_AE_TITLE = 'LINK';
export const LINK_SOURCE_KIND = 'link';

/** Where a link's file is indexed: the link's group, with the link's source AE. */
export function linkIndexTarget(group: { accountId: string; namespaceId: string }): IndexTarget {
  return { accountId: group.accountId, namespaceId: group.namespaceId, sourceAeTitle: LINK_SOURCE_AE_TITLE };
}
