import { DESTINATION_SEARCH_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { Caller } from '../../policies/index.js';
import { callerEvent, type AuditService } from '../../audit/audit.service.js';
import { newUuid } from '../../security/tokens.js';
import type { DestinationRow } from './destinations.repository.js';
import type { DestinationSearchesRepository } from './destination-searches.repository.js';

export interface SearchStartDeps {
  searches: Pick<DestinationSearchesRepository, 'insertSearch'>;
  jobs: JobQueue;
  audit: AuditService;
  now: () => number;
}

/** What differs between a study search (C-FIND of studies) and a worklist search (of MWL items). */
export interface SearchToStart {
  kind: 'study' | 'mwl';
  /** The parsed criteria, stored with the search and kept in its audit event. */
  query: object;
  /** More for the audit event (the study a worklist search was made for). */
  detail?: Record<string, unknown>;
}

/**
 * Starts a search of a destination the caller was already allowed to search into `namespaceId`:
 * the search row (polled by destination/search/get), its job and its DESTINATION_SEARCH audit event.
 * Study and worklist searches share this one start and differ only in `kind` and their criteria.
 */
export async function startDestinationSearch(
  deps: SearchStartDeps,
  caller: Caller,
  destination: DestinationRow,
  namespaceId: string,
  search: SearchToStart,
): Promise<{ uuid: string }> {
  const uuid = newUuid();
  const now = deps.now();
  await deps.searches.insertSearch({
    uuid,
    destination_id: destination.uuid,
    account_id: destination.account_id,
    namespace_id: namespaceId,
    user_id: caller.user.uuid,
    kind: search.kind,
    query: JSON.stringify(search.query),
    state: 'running',
    reason: null,
    created: now,
    updated: now,
  });
  await deps.jobs.enqueue(DESTINATION_SEARCH_JOB, { search: uuid }, { dedupeKey: `search:${uuid}` });
  deps.jobs.kick();
  const target = { type: 'destination', id: destination.uuid };
  const detail = {
    search: uuid,
    // A study search's event has no kind: it was the only kind when History learnt to show these.
    ...(search.kind === 'mwl' ? { kind: search.kind } : {}),
    namespace_id: namespaceId,
    destination_name: destination.name,
    ...search.detail,
    query: search.query,
  };
  await deps.audit.record(callerEvent(caller, destination.account_id, 'DESTINATION_SEARCH', target, detail));
  return { uuid };
}
