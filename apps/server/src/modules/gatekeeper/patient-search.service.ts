import type { StudyPatientSearchRequest } from '@imaging-inbox/contract';
import { notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireGatekeeperProcess } from './nominations.js';
import type { DestinationsRepository } from '../pacs/index.js';
import type { StudiesRepository } from '../../repositories/studies.repository.js';
import type { DestinationSearchService } from '../pacs/index.js';
import type { GroupConfigService } from '../admin/index.js';

interface Deps {
  studies: Pick<StudiesRepository, 'findByUuid'>;
  destinations: Pick<DestinationsRepository, 'find'>;
  configs: Pick<GroupConfigService, 'gatekeeper'>;
  searches: Pick<DestinationSearchService, 'start'>;
}

/**
 * Search Patient, the C-Find flow of processing a nomination (SPEC.md section 4): a destination
 * search (the same C-FIND job Retrieve Study runs and polls) of the gatekeeper group's query
 * destination, by the patient's MRN and/or name. Whoever may process the nomination's copy may
 * search; a group with no C-Find destination configured answers NOT_FOUND `query_destination`.
 */
export class PatientSearchService {
  constructor(private readonly deps: Deps) {}

  async search(caller: Caller, input: StudyPatientSearchRequest): Promise<{ uuid: string }> {
    const copy = requireGatekeeperProcess(caller, await this.deps.studies.findByUuid(input.uuid));
    const group = caller.groups.get(copy.namespace_id);
    if (group?.type !== 'GATEKEEPER') throw notFound('gatekeeper');
    const config = await this.deps.configs.gatekeeper(group.groupId);
    if (config?.pacsPromotePreference !== 'C-Find' || !config.queryDestination) {
      throw notFound('query_destination');
    }
    const destination = await this.deps.destinations.find(config.queryDestination);
    // A destination deleted (or of another account) since the group was configured.
    if (!destination || destination.account_id !== copy.account_id) throw notFound('query_destination');
    return this.deps.searches.start(caller, destination, copy.namespace_id, {
      patientid: input.patientid,
      patient_name: input.patientName,
    });
  }
}
