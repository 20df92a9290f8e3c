import { WORKLIST_SEARCH_CAP } from '@imaging-inbox/contract';
import type {
  DestinationSearchesRepository,
  DestinationSearchRow,
} from './destination-searches.repository.js';
import type { PacsClient, PacsPeer } from './pacs-client.js';
import { reasonOf, statusText } from './destination-job.js';
import { worklistItemOf, worklistSearchKeys } from './worklist-search-query.js';
import type { WorklistSearchQuery } from './worklist-search-query.js';

/** How a worklist search ended, for the search job to record and audit. */
export interface WorklistSearchEnd {
  state: 'done' | 'failed';
  reason: string | null;
  truncated: boolean;
  detail: Record<string, unknown>;
}

/**
 * The C-FIND of a worklist search (destination/search/mwl): one Modality Worklist query, at most
 * WORKLIST_SEARCH_CAP answers kept (the C-FIND cancelled past it), the items written together.
 */
export async function runWorklistSearch(
  search: DestinationSearchRow,
  peer: PacsPeer,
  deps: { searches: DestinationSearchesRepository; pacs: Pick<PacsClient, 'findWorklist'> },
  signal: AbortSignal | undefined,
): Promise<WorklistSearchEnd> {
  const query = JSON.parse(search.query) as WorklistSearchQuery;
  let found;
  try {
    found = await deps.pacs.findWorklist(peer, worklistSearchKeys(query), {
      cap: WORKLIST_SEARCH_CAP,
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    const reason = reasonOf(error);
    return { state: 'failed', reason, truncated: false, detail: { reason } };
  }
  const { results, outcome } = found;
  // Pending answers before a failure status are not kept: the user sees why and searches again.
  if (outcome.status !== 0x0000 && !outcome.truncated) {
    const reason = `the destination answered status ${statusText(outcome.status)}`;
    return { state: 'failed', reason, truncated: false, detail: { reason } };
  }
  const items = results.slice(0, WORKLIST_SEARCH_CAP).map(worklistItemOf);
  await deps.searches.addWorklistItems(search.uuid, items);
  return {
    state: 'done',
    reason: outcome.truncated ? `more than ${WORKLIST_SEARCH_CAP} items: narrow the search` : null,
    truncated: outcome.truncated,
    detail: { count: items.length, truncated: outcome.truncated },
  };
}
