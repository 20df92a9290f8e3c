import type {
  DestinationRetrieve,
  DestinationSearch,
  DestinationWorklistSearch,
} from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import { DESTINATION_RETRIEVE_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { parseSearchQuery } from './search-query.js';
import type { SearchParams } from './search-query.js';
import type { Caller } from '../../policies/index.js';
import { requireFollowedSearch, requireSearchTarget, requireVisibleSearch } from './destinations.js';
import type { DestinationRow } from './destinations.repository.js';
import type {
  DestinationRetrieveRow,
  DestinationSearchesRepository,
  DestinationSearchRow,
} from './destination-searches.repository.js';
import { callerEvent, type AuditService } from '../../audit/audit.service.js';
import { startDestinationSearch } from './destination-search-start.js';
import type { DestinationService } from './destination.service.js';
import { newUuid } from '../../security/tokens.js';

interface Deps {
  destinations: DestinationService;
  searches: DestinationSearchesRepository;
  jobs: JobQueue;
  audit: AuditService;
  now?: () => number;
}

/**
 * Retrieve Study (SPEC.md sections 2, 4, 7): a search of a destination (C-FIND) and the retrieve of
 * a found study (C-MOVE to our AE) are jobs whose state is in the database, so the page polls any
 * server process. Both need destination_search in the group the studies are copied to (copy_to);
 * a search is seen by whoever may retrieve into that group.
 */
export class DestinationSearchService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async search(
    caller: Caller,
    destinationId: string,
    copyTo: string,
    params: SearchParams,
  ): Promise<{ uuid: string }> {
    const destination = await this.deps.destinations.usable(caller, destinationId);
    // Unauthorised looks like missing: no such group, another account's, or no destination_search in it.
    requireSearchTarget(caller, copyTo, destination.account_id);
    return this.start(caller, destination, copyTo, params);
  }

  /**
   * Starts a search of a destination the caller was already allowed to search into `namespaceId`
   * (Retrieve Study, or a gatekeeper's Search Patient): the row, its job and the audit record.
   */
  async start(
    caller: Caller,
    destination: DestinationRow,
    namespaceId: string,
    params: SearchParams,
  ): Promise<{ uuid: string }> {
    if (Number(destination.can_search) !== 1)
      throw invalidField('uuid', 'this destination cannot be searched');
    // A date the user picked as today may already be tomorrow in UTC: allow one day ahead.
    const query = parseSearchQuery(params, dicomDate(this.now() + 24 * 3600_000));
    return startDestinationSearch(this.startDeps(), caller, destination, namespaceId, {
      kind: 'study',
      query,
    });
  }

  async get(caller: Caller, uuid: string): Promise<DestinationSearch | DestinationWorklistSearch> {
    const search = requireFollowedSearch(caller, await this.deps.searches.findSearch(uuid));
    if (search.kind === 'mwl') {
      return {
        uuid: search.uuid,
        destination_id: search.destination_id,
        kind: 'mwl',
        state: search.state as DestinationWorklistSearch['state'],
        reason: search.reason,
        truncated: Number(search.truncated) === 1,
        items: await this.deps.searches.worklistItems(uuid),
      };
    }
    const [results, retrieves] = await Promise.all([
      this.deps.searches.results(uuid),
      this.deps.searches.retrievesOfSearch(uuid),
    ]);
    return {
      uuid: search.uuid,
      destination_id: search.destination_id,
      kind: 'study',
      state: search.state as DestinationSearch['state'],
      reason: search.reason,
      results: results.map(({ search_id: _s, seq: _q, ...result }) => result),
      retrieves: retrieves.map(presentRetrieve),
    };
  }

  /** Starts the retrieve of a found study, or answers the one already running for it. */
  async retrieve(caller: Caller, searchId: string, studyUid: string): Promise<DestinationRetrieve> {
    const search = await this.visible(caller, searchId);
    const found = await this.deps.searches.findResult(searchId, studyUid);
    if (!found) throw notFound('study');
    const running = await this.deps.searches.runningRetrieve(searchId, studyUid);
    if (running) return presentRetrieve(running);
    const uuid = newUuid();
    const now = this.now();
    const row = {
      uuid,
      search_id: searchId,
      destination_id: search.destination_id,
      account_id: search.account_id,
      namespace_id: search.namespace_id,
      user_id: caller.user.uuid,
      study_uid: studyUid,
      state: 'running',
      reason: null,
      move_message_id: null,
      completed: null,
      failed: null,
      remaining: null,
      created: now,
      updated: now,
    };
    await this.deps.searches.insertRetrieve(row);
    await this.deps.jobs.enqueue(
      DESTINATION_RETRIEVE_JOB,
      { retrieve: uuid, destination: search.destination_id },
      { dedupeKey: `retrieve:${uuid}` },
    );
    this.deps.jobs.kick();
    const detail = {
      retrieve: uuid,
      search: searchId,
      study_uid: studyUid,
      namespace_id: search.namespace_id,
    };
    const target = { type: 'destination', id: search.destination_id };
    await this.deps.audit.record(callerEvent(caller, search.account_id, 'RETRIEVE', target, detail));
    return presentRetrieve({ ...row, received: 0 });
  }

  /**
   * Ambra's form of destination/retrieve (`activity_id`): every study the finished search found
   * (at most its result cap), each retrieved as the one-study form does; a study already being
   * retrieved answers its running retrieve.
   */
  async retrieveAll(caller: Caller, searchId: string): Promise<DestinationRetrieve[]> {
    const search = await this.visible(caller, searchId);
    if (search.kind !== 'study') throw invalidField('activity_id', 'a worklist search has no studies');
    if (search.state === 'running') throw new DomainError('PENDING', 'activity_id');
    const retrieves: DestinationRetrieve[] = [];
    for (const { study_uid } of await this.deps.searches.results(searchId)) {
      retrieves.push(await this.retrieve(caller, searchId, study_uid));
    }
    return retrieves;
  }

  private startDeps() {
    return { ...this.deps, now: this.now };
  }

  /** A search whose copy_to group the caller may retrieve into, or NOT_FOUND. */
  private async visible(caller: Caller, uuid: string): Promise<DestinationSearchRow> {
    return requireVisibleSearch(caller, await this.deps.searches.findSearch(uuid));
  }
}

export function presentRetrieve(row: DestinationRetrieveRow): DestinationRetrieve {
  const received = Number(row.received);
  return {
    uuid: row.uuid,
    study_uid: row.study_uid,
    state: row.state as DestinationRetrieve['state'],
    reason: row.reason,
    // A PACS that moves synchronously sends no counts until the end: what arrived is the progress.
    completed: Math.max(received, row.completed === null ? 0 : Number(row.completed)),
    failed: row.failed === null ? 0 : Number(row.failed),
    remaining: row.remaining === null ? null : Number(row.remaining),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}

/** A time as a DICOM date (YYYYMMDD, UTC). */
function dicomDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');
}
