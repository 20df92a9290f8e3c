import { invalidField, missingFields } from '../../domain/errors.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import { parseWorklistQuery } from './worklist-search-query.js';
import type { WorklistSearchParams } from './worklist-search-query.js';
import type { Caller, StudyAccess } from '../../policies/index.js';
import { requireWorklistSearch } from './destinations.js';
import type { DestinationsRepository } from './destinations.repository.js';
import type { DestinationSearchesRepository } from './destination-searches.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { startDestinationSearch } from './destination-search-start.js';

interface Deps {
  destinations: Pick<DestinationsRepository, 'find'>;
  searches: DestinationSearchesRepository;
  access: StudyAccess;
  jobs: JobQueue;
  audit: AuditService;
  now?: () => number;
}

/** destination/search/mwl as the route hands it: the destination, whom it is for, the criteria. */
export interface WorklistSearchRequest extends WorklistSearchParams {
  uuid: string;
  study_id?: string | undefined;
  namespace_id?: string | undefined;
}

/**
 * A search of a destination's Modality Worklist (Ambra's destination/search/mwl): made for a study
 * (its group) or a group, it runs as a destination search job of kind `mwl` and is polled with
 * destination/search/get by whoever holds destination_search_mwl in that group.
 */
export class WorklistSearchService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async search(caller: Caller, request: WorklistSearchRequest): Promise<{ uuid: string }> {
    const { uuid: destinationId, study_id: studyId, namespace_id: namespace, ...criteria } = request;
    const given = (v: string | undefined) => (v?.trim() ? v.trim() : undefined);
    if (given(studyId) && given(namespace)) {
      throw invalidField('namespace_id', 'give study_id or namespace_id, not both');
    }
    const namespaceId = given(studyId)
      ? (
          await this.deps.access.byUuid(caller, given(studyId)!, {
            permissions: ['study_view'],
            deleted: 'hidden',
          })
        ).namespace_id
      : given(namespace);
    if (!namespaceId) throw missingFields(['study_id']);
    const destination = requireWorklistSearch(
      caller,
      namespaceId,
      await this.deps.destinations.find(destinationId),
    );
    if (Number(destination.can_search_mwl) !== 1) {
      throw invalidField('uuid', 'this destination has no modality worklist to search (can_search_mwl)');
    }
    const query = parseWorklistQuery(criteria);
    const detail = given(studyId) ? { study_id: given(studyId) } : {};
    const deps = { ...this.deps, now: this.now };
    return startDestinationSearch(deps, caller, destination, namespaceId, { kind: 'mwl', query, detail });
  }
}
