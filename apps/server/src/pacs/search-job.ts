import { DESTINATION_SEARCH_JOB } from '../jobs/job-kinds.js';
import type { JobHandler } from '../jobs/job-runner.js';
import type {
  DestinationSearchesRepository,
  SearchResultFields,
} from '../repositories/destination-searches.repository.js';
import type { DestinationsRepository } from '../repositories/destinations.repository.js';
import type { AuditService } from '../services/audit.service.js';
import type { PacsClient } from './pacs-client.js';
import { findKeys, searchResultOf } from './search-query.js';
import type { SearchQuery } from './search-query.js';

/** Past this many matches the C-FIND is cancelled and the search says it was cut short. */
export const SEARCH_RESULT_CAP = 500;
/** Results are written in batches of this many, so the page sees them arrive. */
const BATCH = 25;

interface Deps {
  searches: DestinationSearchesRepository;
  destinations: DestinationsRepository;
  pacs: PacsClient;
  audit: AuditService;
  now?: () => number;
}

/**
 * Runs a destination search: one C-FIND (Study Root, STUDY level), each batch of results written as
 * it arrives, then the search marked done, or failed with the reason. A search is not retried: the
 * user sees the reason and searches again.
 */
export function destinationSearchJob(deps: Deps): JobHandler<{ search: string }> {
  const now = deps.now ?? Date.now;
  const end = async (uuid: string, state: 'done' | 'failed', reason: string | null, truncated = false) => {
    await deps.searches.endSearch(uuid, { state, reason, truncated }, now());
  };
  return {
    job: DESTINATION_SEARCH_JOB,
    maxAttempts: 1,
    concurrency: 4,
    async run({ search: uuid }, _job, signal) {
      const search = await deps.searches.findSearch(uuid);
      if (!search || search.state !== 'running') return;
      const destination = await deps.destinations.find(search.destination_id);
      if (!destination) return end(uuid, 'failed', 'the destination was deleted');
      const query = JSON.parse(search.query) as SearchQuery;
      let seq = 0;
      let batch: SearchResultFields[] = [];
      const flush = async () => {
        const rows = batch;
        batch = [];
        await deps.searches.addResults(uuid, seq, rows);
        seq += rows.length;
      };
      let outcome;
      try {
        outcome = await deps.pacs.findStudies(
          { aeTitle: destination.aetitle, host: destination.address, port: Number(destination.port) },
          findKeys(query),
          async (attributes) => {
            const result = searchResultOf(attributes, destination.aetitle);
            if (!result) return;
            batch.push(result);
            if (batch.length >= BATCH) await flush();
          },
          { cap: SEARCH_RESULT_CAP, signal },
        );
        await flush();
      } catch (error) {
        await flush().catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        await end(uuid, 'failed', reason);
        await audit(deps, search, 'FAILURE', { reason });
        return;
      }
      if (outcome.status !== 0x0000 && !outcome.truncated) {
        const reason = `the destination answered status ${outcome.status.toString(16).padStart(4, '0').toUpperCase()}`;
        await end(uuid, 'failed', reason);
        await audit(deps, search, 'FAILURE', { reason });
        return;
      }
      await end(
        uuid,
        'done',
        outcome.truncated ? `more than ${SEARCH_RESULT_CAP} matches: narrow the search` : null,
        outcome.truncated,
      );
      await audit(deps, search, 'SUCCESS', { count: seq, truncated: outcome.truncated });
    },
  };
}

function audit(
  deps: Deps,
  search: { uuid: string; user_id: string; account_id: string; destination_id: string },
  outcome: 'SUCCESS' | 'FAILURE',
  detail: Record<string, unknown>,
) {
  return deps.audit.record({
    userId: search.user_id,
    accountId: search.account_id,
    action: 'DESTINATION_SEARCH_END',
    objectType: 'destination',
    objectId: search.destination_id,
    outcome,
    detail: { search: search.uuid, ...detail },
  });
}
