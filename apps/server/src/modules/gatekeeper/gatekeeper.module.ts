import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { Hl7InboxService } from './hl7-inbox.service.js';
import { Hl7ResultsRepository } from './hl7-results.repository.js';
import { nominationExtras } from './nomination-extras.js';
import { NominationNotifier } from './nomination-notifier.js';
import { nominationProcessJob } from './nomination-process-job.js';
import { NominationProcessRepository } from './nomination-process.repository.js';
import { NominationProcessService } from './nomination-process.service.js';
import { nominationRoutes } from './nomination.routes.js';
import { NominationService } from './nomination.service.js';
import { NominationsRepository } from './nominations.repository.js';
import { orderRoutes } from './order.routes.js';
import { OrderService } from './order.service.js';
import { OrdersRepository } from './orders.repository.js';
import { PatientSearchService } from './patient-search.service.js';
import { studyReportRoutes } from './study-report.routes.js';
import { StudyReportService } from './study-report.service.js';
import { StudyReportsRepository } from './study-reports.repository.js';

/** What the gatekeeper workflow needs of administration (group configuration), pacs and sharing. */
export interface GatekeeperNeeds {
  groupConfigs: ProcessDeps['configs'] & SearchDeps['configs'];
  groupConfigsRepository: NominationDeps['groups'];
  pacs: ProcessDeps['pacs'] & OrderDeps['pacs'];
  callingAes: ProcessDeps['callingAes'];
  destinations: ProcessDeps['destinations'] & SearchDeps['destinations'];
  pushes: ProcessDeps['pushes'];
  destinationSearches: SearchDeps['searches'];
  hl7Senders: ConstructorParameters<typeof Hl7InboxService>[0]['senders'];
  shares: NominationDeps['shares'];
  /** The studies module's editor of stored files (the order's attributes written into the copy). */
  fileEditor: ProcessDeps['fileEditor'];
}

// A module file imports no other module: what it needs is named in its own services' terms.
type ProcessDeps = ConstructorParameters<typeof NominationProcessService>[0];
type OrderDeps = ConstructorParameters<typeof OrderService>[0];
type NominationDeps = ConstructorParameters<typeof NominationService>[0];
type SearchDeps = ConstructorParameters<typeof PatientSearchService>[0];

/**
 * The gatekeeper workflow (README.md, decision 0032): nominations and their processing, Search
 * Patient, orders, the HL7 inbox and reports; it adds a live nomination's status to a study's answer.
 */
export function createGatekeeperModule(kernel: Kernel, needs: GatekeeperNeeds) {
  const { audit, blobs, collector, config, log, mailer, events } = kernel;
  const { studies, accounts, userEvents } = kernel.repos;
  const k = kernel.db.kysely;
  const repos = {
    nominations: new NominationsRepository(k),
    orders: new OrdersRepository(k),
    hl7Results: new Hl7ResultsRepository(k),
  };
  const { groupConfigs: configs, pacs, callingAes, destinations } = needs;
  const nominationProcess = new NominationProcessService({
    nominations: repos.nominations,
    process: new NominationProcessRepository(k),
    orders: repos.orders,
    studies,
    pushes: needs.pushes,
    destinations,
    configs,
    fileEditor: needs.fileEditor,
    pacs,
    callingAes,
    jobs: kernel.jobs,
    audit,
  });
  const orders = new OrderService({ orders: repos.orders, destinations, configs, pacs, callingAes, audit });
  kernel.studyExtras.register('gatekeeper.nominations', nominationExtras(repos.nominations));
  return {
    repos,
    services: {
      nominationProcess,
      orders,
      studyReports: new StudyReportService({
        access: kernel.studyAccess,
        reports: new StudyReportsRepository(k),
        results: repos.hl7Results,
        blobs,
        ingest: kernel.services.ingest,
        audit,
        accounts,
        log,
      }),
      hl7: new Hl7InboxService({
        accounts,
        orders: repos.orders,
        orderService: orders,
        results: repos.hl7Results,
        senders: needs.hl7Senders,
        audit,
        log,
      }),
      nominations: new NominationService({
        nominations: repos.nominations,
        studies,
        shares: needs.shares,
        groups: needs.groupConfigsRepository,
        configs,
        collector,
        audit,
        notifier: new NominationNotifier({ userEvents, mailer, publicUrl: config.publicUrl }),
        onEvent: (event, studyUuid, detail) => events.happened(event, studyUuid, detail),
      }),
      patientSearches: new PatientSearchService({
        studies,
        destinations,
        configs,
        searches: needs.destinationSearches,
      }),
    },
    jobs: [nominationProcessJob(nominationProcess)],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerGatekeeperRoutes(
  ctx: AppContext,
  app: FastifyInstance,
  http: { maxUploadBytes: number },
): void {
  nominationRoutes(ctx, app);
  orderRoutes(ctx, app);
  studyReportRoutes(ctx, app, http.maxUploadBytes);
}
