import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { DicomPeerGuard } from '../../security/dicom-peer-guard.js';
import { OutboundGuard } from '../../security/outbound-guard.js';
import { CallingAeTitlesRepository } from './calling-ae-titles.repository.js';
import { CallingAeTitles } from './calling-ae-titles.service.js';
import { DeliveryRouter } from './delivery-router.js';
import { DestinationSearchService } from './destination-search.service.js';
import { DestinationSearchesRepository } from './destination-searches.repository.js';
import { destinationRoutes, destinationSearchRoutes, studyPushRoutes } from './destination.routes.js';
import { DestinationService } from './destination.service.js';
import { DestinationsRepository } from './destinations.repository.js';
import { dicomNodeRoutes } from './dicom-node.routes.js';
import { DicomNodeService } from './dicom-node.service.js';
import { hl7SenderRoutes } from './hl7-sender.routes.js';
import { Hl7SenderService } from './hl7-sender.service.js';
import { Hl7SendersRepository } from './hl7-senders.repository.js';
import { dicomPacsClient } from './pacs-client.js';
import { studyPushJob } from './push-job.js';
import { destinationRetrieveJob } from './retrieve-job.js';
import { ScannerValidationService } from './scanner-validation.service.js';
import { destinationSearchJob } from './search-job.js';
import { studyPushExtras } from './study-push-extras.js';
import { StudyPushService } from './study-push.service.js';
import { StudyPushesRepository } from './study-pushes.repository.js';
import type { StudyPushRow } from './study-pushes.repository.js';
import { pushFinisher } from './push-finish.js';
import { storageCommitmentExpiryJob } from './storage-commitment-job.js';
import { StorageCommitmentService } from './storage-commitment.service.js';
import { StorageCommitmentsRepository } from './storage-commitments.repository.js';
import { WorklistSearchService } from './worklist-search.service.js';
import type { PushProfiles } from './push-profiles.js';

/** What pacs needs of other modules: the de-identification profiles pushes apply (privacy, decision 0071). */
export interface PacsNeeds {
  profiles?: PushProfiles | undefined;
}

/**
 * Talking to PACS (README.md): destinations, their searches, retrieves and pushes (with storage
 * commitment), DICOM nodes, HL7 senders and calling AE titles; it answers the DICOM listener's
 * move-delivery questions and storage commitment reports, and adds
 * each study's push attempts to its answer.
 */
export function createPacsModule(kernel: Kernel, needs: PacsNeeds = {}) {
  const { config, db, audit, blobs, jobs, log } = kernel;
  const k = db.kysely;
  const repos = {
    destinations: new DestinationsRepository(k),
    destinationSearches: new DestinationSearchesRepository(k),
    studyPushes: new StudyPushesRepository(k),
    hl7Senders: new Hl7SendersRepository(k),
  };
  /** The AE title each account (or destination) calls its PACS as (decision 0054). */
  const callingAes = new CallingAeTitles({
    titles: new CallingAeTitlesRepository(k),
    serverAe: config.dicomAet,
  });
  /** Where destinations may be: the webhook address rules, unless DICOM_ALLOWED_HOSTS allows them. */
  const dicomPeerGuard = new DicomPeerGuard(new OutboundGuard(config.dicomAllowedHosts));
  /** Every DICOM operation toward a PACS on an association of its own, its host checked at each connection. */
  const pacs = dicomPacsClient({ address: (host) => dicomPeerGuard.address(host), log });
  const destinations = new DestinationService({
    destinations: repos.destinations,
    nodes: kernel.repos.dicomNodes,
    audit,
    echo: (peer) => pacs.echo(peer),
    callingAes,
    addressProblem: (host) => dicomPeerGuard.problem(host),
    log,
    profiles: needs.profiles,
  });
  const destinationSearches = new DestinationSearchService({
    destinations,
    searches: repos.destinationSearches,
    jobs,
    audit,
  });
  const deliveries = new DeliveryRouter({
    searches: repos.destinationSearches,
    destinations: repos.destinations,
    callingAes,
  });
  kernel.studyExtras.register('pacs.pushes', studyPushExtras(repos.studyPushes));
  /** Each push attempt's end, told to webhooks. */
  const onFinished = (push: StudyPushRow, status: 'S' | 'P' | 'F') =>
    kernel.events.happened(
      status === 'S' ? 'study_pushed_success' : 'study_pushed_failure',
      push.study_uuid,
      {
        push: push.uuid,
        destination_id: push.destination_id,
        destination_name: push.destination_name,
        status,
      },
    );
  const storageCommitments = new StorageCommitmentsRepository(k);
  const commitments = new StorageCommitmentService({
    commitments: storageCommitments,
    pushes: repos.studyPushes,
    finish: pushFinisher({ pushes: repos.studyPushes, audit, onFinished }),
    log,
  });
  const workDeps = {
    searches: repos.destinationSearches,
    destinations: repos.destinations,
    pacs,
    callingAes,
    audit,
  };
  return {
    repos,
    services: {
      callingAes,
      destinations,
      destinationSearches,
      deliveries,
      hl7Senders: new Hl7SenderService({ senders: repos.hl7Senders, audit }),
      dicomNodes: new DicomNodeService({
        nodes: kernel.repos.dicomNodes,
        accounts: kernel.repos.accounts,
        audit,
        ourAeTitle: config.dicomAet,
      }),
      scanners: new ScannerValidationService({
        nodes: kernel.repos.dicomNodes,
        accounts: kernel.repos.accounts,
        ourAeTitle: config.dicomAet,
      }),
      worklistSearches: new WorklistSearchService({
        destinations: repos.destinations,
        searches: repos.destinationSearches,
        access: kernel.studyAccess,
        jobs,
        audit,
      }),
      pushes: new StudyPushService({
        pushes: repos.studyPushes,
        studies: kernel.repos.studies,
        destinations,
        jobs,
        audit,
        profiles: needs.profiles,
      }),
    },
    /** The PACS client other workflows talk through (gatekeeper's orders, Search Patient, processing). */
    pacs,
    jobs: [
      destinationSearchJob(workDeps),
      destinationRetrieveJob(workDeps),
      studyPushJob({
        pushes: repos.studyPushes,
        destinations: repos.destinations,
        blobs,
        pacs,
        callingAes,
        audit,
        backoffMs: (attempt) => config.pushRetryMs * 2 ** (attempt - 1),
        onFinished,
        profiles: needs.profiles,
        commitment: {
          commitments: storageCommitments,
          service: commitments,
          jobs,
          defaultTimeoutS: config.storageCommitmentTimeoutS,
        },
      }),
      storageCommitmentExpiryJob({ commitments }),
    ],
    /** What the DICOM listener asks of this module (dimse/move-deliveries.ts). */
    handlers: { moveDeliveries: deliveries, storageCommitments: commitments },
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerPacsRoutes(ctx: AppContext, app: FastifyInstance): void {
  dicomNodeRoutes(ctx, app);
  hl7SenderRoutes(ctx, app);
  destinationRoutes(ctx, app);
  destinationSearchRoutes(ctx, app);
  studyPushRoutes(ctx, app);
}
