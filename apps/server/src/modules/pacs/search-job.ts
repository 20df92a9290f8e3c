import { DESTINATION_SEARCH_JOB } from '../../jobs/job-kinds.js';
import type { JobHandler } from '../../jobs/job-runner.js';
import type { DestinationSearchesRepository, SearchResultFields } from './destination-searches.repository.js';
import type { DestinationsRepository } from './destinations.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { auditWorkEnd, reasonOf, startDestinationWork, statusText } from './destination-job.js';
import type { CallingAeOf } from './destination-job.js';
import type { PacsClient } from './pacs-client.js';
import { findKeys, searchResultOf } from './search-query.js';
import type { SearchQuery } from './search-query.js';
import { runWorklistSearch } from './worklist-search-run.js';

/** Past this many matches the C-FIND is cancelled and the search says it was cut short. */
export const SEARCH_RESULT_CAP = 500;
/** Results are written in batches of this many, so the page sees them arrive. */
const BATCH = 25;

interface Deps {
  searches: DestinationSearchesRepository;
  destinations: DestinationsRepository;
  pacs: PacsClient;
  /** The AE title each destination is called as. */
  callingAes: CallingAeOf;
  audit: AuditService;
  now?: () => number;
}

/**
 * Runs a destination search: one C-FIND (Study Root, STUDY level), each batch of results written as
 * it arrives, then the search marked done, or failed with the reason; a worklist search (kind `mwl`)
 * runs its Modality Worklist C-FIND instead (worklist-search-run.ts). A search is not retried: the
 * user sees the reason and searches again.
 */
export function destinationSearchJob(deps: Deps): JobHandler<{ search: string }> {
  const now = deps.now ?? Date.now;
  return {
    job: DESTINATION_SEARCH_JOB,
    maxAttempts: 1,
    concurrency: 4,
    async run({ search: uuid }, _job, signal) {
      const started = await startDestinationWork(
        await deps.searches.findSearch(uuid),
        deps.destinations,
        deps.callingAes,
      );
      if (!started) return;
      const search = started.row;
      const end = async (
        state: 'done' | 'failed',
        reason: string | null,
        detail: Record<string, unknown>,
        truncated = false,
      ) => {
        await deps.searches.endSearch(uuid, { state, reason, truncated }, now());
        const outcome = state === 'done' ? 'SUCCESS' : 'FAILURE';
        await auditWorkEnd(deps.audit, search, 'DESTINATION_SEARCH_END', outcome, {
          search: uuid,
          ...detail,
        });
      };
      if ('gone' in started) return end('failed', 'the destination was deleted', {});
      if (search.kind === 'mwl') {
        const ended = await runWorklistSearch(search, started.peer, deps, signal);
        return end(ended.state, ended.reason, ended.detail, ended.truncated);
      }
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
          started.peer,
          findKeys(query),
          async (attributes) => {
            const result = searchResultOf(attributes, started.peer.aeTitle);
            if (!result) return;
            batch.push(result);
            if (batch.length >= BATCH) await flush();
          },
          { cap: SEARCH_RESULT_CAP, signal },
        );
        await flush();
      } catch (error) {
        await flush().catch(() => undefined);
        const reason = reasonOf(error);
        return end('failed', reason, { reason });
      }
      if (outcome.status !== 0x0000 && !outcome.truncated) {
        const reason = `the destination answered status ${statusText(outcome.status)}`;
        return end('failed', reason, { reason });
      }
      await end(
        'done',
        outcome.truncated ? `more than ${SEARCH_RESULT_CAP} matches: narrow the search` : null,
        { count: seq, truncated: outcome.truncated },
        outcome.truncated,
      );
    },
  };
}
