import { randomUUID } from 'node:crypto';
import type { Config } from './config.js';
import type { Db } from './db/dialect.js';
import { Mailer } from './mail/mailer.js';
import { MailLanguages } from './mail/mail-language.js';
import { AccountsRepository } from './repositories/accounts.repository.js';
import { AuditRepository } from './audit/audit.repository.js';
import { AuthFailuresRepository } from './repositories/auth-failures.repository.js';
import { DicomNodesRepository } from './repositories/dicom-nodes.repository.js';
import { RolesRepository } from './modules/admin/index.js';
import { GroupAdminRepository } from './modules/admin/index.js';
import { RoleService } from './modules/admin/index.js';
import { GroupAdminService } from './modules/admin/index.js';
import { MembershipsRepository } from './repositories/memberships.repository.js';
import { OutboxRepository } from './repositories/outbox.repository.js';
import { PasswordResetsRepository } from './modules/accounts/index.js';
import { SessionsRepository } from './repositories/sessions.repository.js';
import { SettingsRepository } from './repositories/settings.repository.js';
import { StudiesRepository } from './repositories/studies.repository.js';
import { TagsRepository } from './modules/studies/index.js';
import { UsersRepository } from './repositories/users.repository.js';
import { AccessService, StudyAccess } from './policies/index.js';
import { AuditService } from './audit/audit.service.js';
import { PasswordResetService } from './modules/accounts/index.js';
import { ProfileService } from './modules/accounts/index.js';
import type { RateLimits } from './modules/accounts/index.js';
import { SessionService } from './modules/accounts/index.js';
import { TwoFactorRepository, TwoFactorService } from './modules/accounts/index.js';
import { StudyService } from './modules/studies/index.js';
import { StudyUploadService } from './modules/studies/index.js';
import { StudySchemaService } from './modules/studies/index.js';
import { BlobCollector } from './storage/blob-collector.js';
import { BlobReferencesRepository } from './repositories/blob-references.repository.js';
import type { BlobStore } from './storage/blob-store.js';
import { S3BlobStore } from './storage/s3-blob-store.js';
import { FileBlobStore } from './storage/file-blob-store.js';
import { DicomNodeService } from './modules/pacs/index.js';
import { ScannerValidationService } from './modules/pacs/index.js';
import { StudyActivityRepository } from './modules/studies/index.js';
import { StudyActivityService } from './modules/studies/index.js';
import { DestinationsRepository } from './modules/pacs/index.js';
import { DestinationService } from './modules/pacs/index.js';
import { AccountUsersRepository } from './modules/admin/index.js';
import { AccountUserService } from './modules/admin/index.js';
import { DestinationSearchesRepository } from './modules/pacs/index.js';
import { PatientSearchService } from './modules/gatekeeper/index.js';
import { DestinationSearchService } from './modules/pacs/index.js';
import { WorklistSearchService } from './modules/pacs/index.js';
import { dicomPacsClient } from './modules/pacs/index.js';
import { destinationSearchJob } from './modules/pacs/index.js';
import { destinationRetrieveJob } from './modules/pacs/index.js';
import { DeliveryRouter } from './modules/pacs/index.js';
import { StudyPushesRepository } from './modules/pacs/index.js';
import { StudyPushService } from './modules/pacs/index.js';
import { GroupConfigsRepository } from './modules/admin/index.js';
import { GroupConfigService } from './modules/admin/index.js';
import { NominationsRepository } from './modules/gatekeeper/index.js';
import { NominationService } from './modules/gatekeeper/index.js';
import { NominationProcessService } from './modules/gatekeeper/index.js';
import { NominationProcessRepository } from './modules/gatekeeper/index.js';
import { nominationProcessJob } from './modules/gatekeeper/index.js';
import { OrdersRepository } from './modules/gatekeeper/index.js';
import { OrderService } from './modules/gatekeeper/index.js';
import { NominationNotifier } from './modules/gatekeeper/index.js';
import { Hl7ResultsRepository } from './modules/gatekeeper/index.js';
import { Hl7SendersRepository } from './modules/pacs/index.js';
import { Hl7InboxService } from './modules/gatekeeper/index.js';
import { Hl7SenderService } from './modules/pacs/index.js';
import { StudyReportsRepository } from './modules/gatekeeper/index.js';
import { StudyReportService } from './modules/gatekeeper/index.js';
import { studyPushJob } from './modules/pacs/index.js';
import { studyPushExtras } from './modules/pacs/index.js';
import { nominationExtras } from './modules/gatekeeper/index.js';
import { StudyExtrasRegistry } from './kernel/study-extras.js';
import { IngestService } from './ingest/ingest.service.js';
import { IngestRecovery } from './ingest/recovery-scan.js';
import { WrapService } from './modules/studies/index.js';
import { DicomwebRepository } from './repositories/dicomweb.repository.js';
import { IngestRepository } from './repositories/ingest.repository.js';
import { DownloadService } from './modules/studies/index.js';
import { PurgeRepository } from './modules/studies/index.js';
import { PurgeService } from './modules/studies/index.js';
import { StudyTrashService } from './modules/studies/index.js';
import { StudyMarksService } from './modules/studies/index.js';
import { SharesRepository } from './modules/sharing/index.js';
import { ShareService } from './modules/sharing/index.js';
import { LinksRepository } from './modules/sharing/index.js';
import { LinkService } from './modules/sharing/index.js';
import type { LinkRateLimits } from './modules/sharing/index.js';
import { LinkAccessService } from './modules/sharing/index.js';
import { StudyFilesRepository } from './modules/studies/index.js';
import { StudyFileEditor } from './modules/studies/index.js';
import { AttachmentsRepository } from './modules/studies/index.js';
import { AttachmentService } from './modules/studies/index.js';
import { UploadSessionsRepository } from './repositories/upload-sessions.repository.js';
import { ObjectUploadChunkStore } from './storage/object-upload-chunk-store.js';
import { UploadChunkStore } from './storage/upload-chunk-store.js';
import { UploadSessionService } from './ingest/upload-session.service.js';
import { uploadAnswer } from './ingest/upload-answer.js';
import { ViewerTokensRepository } from './dicomweb/viewer-tokens.repository.js';
import { ViewerTokenService } from './dicomweb/viewer-token.service.js';
import { UserEventsRepository } from './repositories/user-events.repository.js';
import { HarvestNoticesRepository } from './repositories/harvest-notices.repository.js';
import { NotificationPreferencesService } from './modules/accounts/index.js';
import { HarvestNotifier } from './notifications/harvest-notifier.js';
import { ShareNotifier } from './modules/sharing/index.js';
import { JobsRepository } from './repositories/jobs.repository.js';
import { JobQueue } from './jobs/job-queue.js';
import { HealthRepository } from './health/health.repository.js';
import { Metrics } from './metrics/metrics.js';
import { Readiness } from './health/readiness.service.js';
import { JobRunner } from './jobs/job-runner.js';
import { SendsRepository } from './modules/sharing/index.js';
import { SendService } from './modules/sharing/index.js';
import { SendAccessService } from './modules/sharing/index.js';
import { CustomFieldsRepository } from './modules/admin/index.js';
import { CustomFieldService } from './modules/admin/index.js';
import { RoutingRulesRepository } from './modules/routing/index.js';
import { WebhooksRepository } from './modules/routing/index.js';
import { LabelOverridesRepository } from './modules/admin/index.js';
import { LabelService } from './modules/admin/index.js';
import { AccountSettingsService } from './modules/admin/index.js';
import { RoutingRuleService } from './modules/routing/index.js';
import { RoutingEngine } from './modules/routing/index.js';
import { WebhookService } from './modules/routing/index.js';
import { OutboundGuard } from './security/outbound-guard.js';
import { CallingAeTitles } from './modules/pacs/index.js';
import { DicomPeerGuard } from './security/dicom-peer-guard.js';
import { CallingAeTitlesRepository } from './modules/pacs/index.js';
import { AuditLogService } from './modules/admin/index.js';

/** The composition root: every repository and service, wired once per process. */
export function createContext(
  config: Config,
  db: Db,
  options: { rateLimits?: RateLimits; linkLimits?: LinkRateLimits; log?: (line: string) => void } = {},
) {
  const log = options.log ?? ((line: string) => console.error(line));
  const k = db.kysely;
  const repos = {
    users: new UsersRepository(k),
    sessions: new SessionsRepository(k),
    failures: new AuthFailuresRepository(k, db.dialect),
    resets: new PasswordResetsRepository(k),
    settings: new SettingsRepository(k),
    accounts: new AccountsRepository(k),
    memberships: new MembershipsRepository(k),
    studies: new StudiesRepository(k),
    dicomweb: new DicomwebRepository(k),
    tags: new TagsRepository(k),
    ingest: new IngestRepository(k, db.dialect),
    purge: new PurgeRepository(k),
    shares: new SharesRepository(k),
    audit: new AuditRepository(k),
    outbox: new OutboxRepository(k),
    dicomNodes: new DicomNodesRepository(k),
    destinations: new DestinationsRepository(k),
    destinationSearches: new DestinationSearchesRepository(k),
    studyPushes: new StudyPushesRepository(k),
    groupConfigs: new GroupConfigsRepository(k),
    nominations: new NominationsRepository(k),
    orders: new OrdersRepository(k),
    hl7Results: new Hl7ResultsRepository(k),
    hl7Senders: new Hl7SendersRepository(k),
    links: new LinksRepository(k),
    uploadSessions: new UploadSessionsRepository(k),
    viewerTokens: new ViewerTokensRepository(k),
    userEvents: new UserEventsRepository(k),
    harvestNotices: new HarvestNoticesRepository(k),
    jobs: new JobsRepository(k, db.dialect),
    sends: new SendsRepository(k),
    customFields: new CustomFieldsRepository(k),
    roles: new RolesRepository(k),
    routingRules: new RoutingRulesRepository(k),
    webhooks: new WebhooksRepository(k),
    labels: new LabelOverridesRepository(k),
  };
  const audit = new AuditService(repos.audit);
  const accountUsersRepo = new AccountUsersRepository(k);
  /**
   * This run of this process, holding the jobs it claims (and the recovery jobs of work its calls
   * do themselves); main.ts keeps it in the run marker for the next start after an unclean stop.
   */
  const runOwner = `${config.processId}/${randomUUID()}`;
  /** Durable jobs of this process; main.ts starts and stops it, handlers are registered below. */
  const jobRunner = new JobRunner({
    jobs: repos.jobs,
    owner: runOwner,
    log,
    concurrency: config.jobConcurrency,
    leaseMs: config.jobLeaseMs,
  });
  const jobQueue = new JobQueue({ jobs: repos.jobs, kick: () => jobRunner.kick(), owner: runOwner });
  const mailer = new Mailer({
    outbox: repos.outbox,
    languages: new MailLanguages({ settings: repos.settings, users: repos.users }),
    jobs: jobQueue,
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    retryMs: config.mailRetryMs,
    maxAttempts: config.mailMaxAttempts,
    host: new URL(config.publicUrl).hostname,
  });
  jobRunner.register(mailer.handler());
  const blobs: BlobStore = config.s3
    ? new S3BlobStore(config.dataDir, config.s3)
    : new FileBlobStore(config.dataDir, config.blobDir, { directoriesAhead: config.blobDirectoriesAhead });
  const collector = new BlobCollector(blobs, new BlobReferencesRepository(k), config.blobGraceMs);
  const engineFqdn = new URL(config.publicUrl).host;
  const access = new AccessService(repos.memberships);
  /** The access policy's study lookups: every route and service finds a requested study through it. */
  const studyAccess = new StudyAccess({ studies: repos.studies, dicomweb: repos.dicomweb });
  /** What modules add to a study's answer: pacs its push attempts, gatekeeper a live nomination's status. */
  const studyExtras = new StudyExtrasRegistry();
  studyExtras.register('pacs.pushes', studyPushExtras(repos.studyPushes));
  studyExtras.register('gatekeeper.nominations', nominationExtras(repos.nominations));
  const harvestNotifier = new HarvestNotifier({
    notices: repos.harvestNotices,
    studies: repos.studies,
    accounts: repos.accounts,
    nodes: repos.dicomNodes,
    userEvents: repos.userEvents,
    mailer,
    publicUrl: config.publicUrl,
    quietMs: config.harvestMailQuietMs,
    log,
  });
  /** Routing rules run on what arrives; the services of their actions are connected below. */
  const routing = new RoutingEngine({
    rules: repos.routingRules,
    studies: repos.studies,
    accounts: repos.accounts,
    nodes: repos.dicomNodes,
    users: repos.users,
    jobs: jobQueue,
    audit,
    quietMs: config.routingQuietMs,
    log,
  });
  jobRunner.register(routing.evaluateHandler());
  jobRunner.register(routing.actionHandler());
  const webhooks = new WebhookService({
    webhooks: repos.webhooks,
    jobs: jobQueue,
    audit,
    guard: new OutboundGuard(config.webhookAllowedHosts),
    retryMs: config.webhookRetryMs,
    deadlineMs: config.webhookDeadlineMs,
    studies: repos.studies,
    log,
  });
  jobRunner.register(webhooks.handler());
  const metrics = new Metrics(config.processId, (now) => repos.jobs.queueStats(now));
  const ingest = new IngestService({
    repo: repos.ingest,
    blobs,
    collector,
    audit,
    meter: metrics,
    onStored: async (event) => {
      await harvestNotifier.noteStored(event);
      await routing.noteStored(event);
    },
    maxInflatedBytes: config.uploadMaxBytes,
  });
  const recovery = new IngestRecovery({
    repo: repos.ingest,
    nodes: repos.dicomNodes,
    blobs,
    ingest,
    collector,
    aeTitle: config.dicomAet,
    rowsMayBeLost: db.dialect === 'sqlite',
    log,
  });
  const shareNotifier = new ShareNotifier({
    accounts: repos.accounts,
    memberships: repos.memberships,
    userEvents: repos.userEvents,
    mailer,
    publicUrl: config.publicUrl,
  });
  const customFields = new CustomFieldService({ fields: repos.customFields, audit });
  const twoFactor = new TwoFactorService({
    codes: new TwoFactorRepository(k),
    settings: repos.settings,
    memberships: repos.memberships,
    failures: repos.failures,
    audit,
    rateLimits: options.rateLimits,
  });
  const passwordReset = new PasswordResetService({
    users: repos.users,
    resets: repos.resets,
    sessions: repos.sessions,
    failures: repos.failures,
    mailer,
    audit,
    publicUrl: config.publicUrl,
  });
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
    nodes: repos.dicomNodes,
    audit,
    echo: (peer) => pacs.echo(peer),
    callingAes,
    addressProblem: (host) => dicomPeerGuard.problem(host),
    log,
  });
  const pacsJobs = {
    searches: repos.destinationSearches,
    destinations: repos.destinations,
    pacs,
    callingAes,
    audit,
  };
  jobRunner.register(destinationSearchJob(pacsJobs));
  jobRunner.register(destinationRetrieveJob(pacsJobs));
  jobRunner.register(
    studyPushJob({
      pushes: repos.studyPushes,
      destinations: repos.destinations,
      blobs,
      pacs,
      callingAes,
      audit,
      backoffMs: (attempt) => config.pushRetryMs * 2 ** (attempt - 1),
      onFinished: (push, status) =>
        webhooks.emitAbout(
          status === 'S' ? 'study_pushed_success' : 'study_pushed_failure',
          push.study_uuid,
          {
            push: push.uuid,
            destination_id: push.destination_id,
            destination_name: push.destination_name,
            status,
          },
        ),
    }),
  );
  const groupConfigs = new GroupConfigService({
    configs: repos.groupConfigs,
    destinations: repos.destinations,
    audit,
  });
  const destinationSearches = new DestinationSearchService({
    destinations,
    searches: repos.destinationSearches,
    jobs: jobQueue,
    audit,
  });
  const nominationProcess = new NominationProcessService({
    nominations: repos.nominations,
    process: new NominationProcessRepository(k),
    orders: repos.orders,
    studies: repos.studies,
    pushes: repos.studyPushes,
    destinations: repos.destinations,
    configs: groupConfigs,
    fileEditor: new StudyFileEditor({ files: new StudyFilesRepository(k), blobs, collector }),
    pacs,
    callingAes,
    jobs: jobQueue,
    audit,
  });
  jobRunner.register(nominationProcessJob(nominationProcess));
  const attachments = new AttachmentService({
    attachments: new AttachmentsRepository(k),
    studies: repos.studies,
    blobs,
    collector,
    audit,
  });
  const orders = new OrderService({
    orders: repos.orders,
    destinations: repos.destinations,
    configs: groupConfigs,
    pacs,
    callingAes,
    audit,
  });
  const services = {
    jobRunner,
    groupConfigs,
    nominationProcess,
    orders,
    studyReports: new StudyReportService({
      access: studyAccess,
      reports: new StudyReportsRepository(k),
      results: repos.hl7Results,
      blobs,
      ingest,
      audit,
      accounts: repos.accounts,
      log,
    }),
    hl7: new Hl7InboxService({
      accounts: repos.accounts,
      orders: repos.orders,
      orderService: orders,
      results: repos.hl7Results,
      senders: repos.hl7Senders,
      audit,
      log,
    }),
    nominations: new NominationService({
      nominations: repos.nominations,
      studies: repos.studies,
      shares: repos.shares,
      groups: repos.groupConfigs,
      configs: groupConfigs,
      collector,
      audit,
      notifier: new NominationNotifier({
        userEvents: repos.userEvents,
        mailer,
        publicUrl: config.publicUrl,
      }),
      onEvent: (event, studyUuid, detail) => webhooks.emitAbout(event, studyUuid, detail),
    }),
    metrics,
    readiness: new Readiness({ health: new HealthRepository(k), blobs, processId: config.processId }),
    audit,
    mailer,
    blobs,
    access,
    harvestNotifier,
    customFields,
    notificationPreferences: new NotificationPreferencesService({
      userEvents: repos.userEvents,
      accounts: repos.accounts,
      memberships: repos.memberships,
      users: repos.users,
      access,
      audit,
    }),
    sessions: new SessionService({
      users: repos.users,
      sessions: repos.sessions,
      failures: repos.failures,
      audit,
      idleSeconds: config.sessionIdleSeconds,
      rateLimits: options.rateLimits,
      twoFactor,
    }),
    twoFactor,
    passwordReset,
    profile: new ProfileService({
      users: repos.users,
      sessions: repos.sessions,
      settings: repos.settings,
      shares: repos.shares,
      sends: repos.sends,
      failures: repos.failures,
      passwords: passwordReset,
      audit,
      rateLimits: options.rateLimits,
    }),
    studyAccess,
    studies: new StudyService({
      studies: repos.studies,
      extras: studyExtras,
      users: repos.users,
      access: studyAccess,
      audit,
      fileEditor: new StudyFileEditor({ files: new StudyFilesRepository(k), blobs, collector }),
      customFields,
      activity: new StudyActivityService(new StudyActivityRepository(k)),
      engineFqdn,
    }),
    ingest,
    studyUploads: new StudyUploadService({ ingest: repos.ingest, access: studyAccess, audit }),
    recovery,
    hl7Senders: new Hl7SenderService({ senders: repos.hl7Senders, audit }),
    dicomNodes: new DicomNodeService({
      nodes: repos.dicomNodes,
      accounts: repos.accounts,
      audit,
      ourAeTitle: config.dicomAet,
    }),
    scanners: new ScannerValidationService({
      nodes: repos.dicomNodes,
      accounts: repos.accounts,
      ourAeTitle: config.dicomAet,
    }),
    destinations,
    roles: new RoleService({ roles: repos.roles, audit }),
    groupAdmin: new GroupAdminService({
      groups: new GroupAdminRepository(k),
      accounts: repos.accounts,
      roles: repos.roles,
      accountUsers: accountUsersRepo,
      audit,
    }),
    accountUsers: new AccountUserService({
      users: accountUsersRepo,
      directory: repos.users,
      accounts: repos.accounts,
      roles: repos.roles,
      mailer,
      audit,
      publicUrl: config.publicUrl,
    }),
    destinationSearches,
    worklistSearches: new WorklistSearchService({
      destinations: repos.destinations,
      searches: repos.destinationSearches,
      access: studyAccess,
      jobs: jobQueue,
      audit,
    }),
    patientSearches: new PatientSearchService({
      studies: repos.studies,
      destinations: repos.destinations,
      configs: groupConfigs,
      searches: destinationSearches,
    }),
    pushes: new StudyPushService({
      pushes: repos.studyPushes,
      studies: repos.studies,
      destinations,
      jobs: jobQueue,
      audit,
    }),
    deliveries: new DeliveryRouter({
      searches: repos.destinationSearches,
      destinations: repos.destinations,
      callingAes,
    }),
    callingAes,
    uploadSessions: new UploadSessionService({
      repo: repos.uploadSessions,
      chunks:
        blobs instanceof S3BlobStore
          ? new ObjectUploadChunkStore(blobs)
          : new UploadChunkStore(config.dataDir),
      ingest,
      answerOf: uploadAnswer,
      limits: {
        maxFileBytes: config.uploadMaxBytes,
        ownerBytes: config.uploadSessionOwnerBytes,
        ownerSessions: 200,
        totalBytes: config.uploadTempMaxBytes,
        ttlMs: config.uploadSessionTtlMs,
      },
    }),
    wrap: new WrapService({ settings: repos.settings, studies: repos.studies, ingest, blobs }),
    downloads: new DownloadService({ studies: repos.studies, dicomweb: repos.dicomweb, blobs, audit }),
    attachments,
    studySchemas: new StudySchemaService({ files: new StudyFilesRepository(k), attachments }),
    trash: new StudyTrashService({ studies: repos.studies, access: studyAccess, audit }),
    marks: new StudyMarksService({ studies: repos.studies, tags: repos.tags, audit }),
    shares: new ShareService({
      shares: repos.shares,
      audit,
      collector,
      mailsFor: (event) => shareNotifier.prepare(event),
      onShared: (copyUuid) => routing.noteShared(copyUuid),
    }),
    purge: new PurgeService({ repo: repos.purge, settings: repos.settings, collector, audit }),
    links: new LinkService({ links: repos.links, mailer, audit, publicUrl: config.publicUrl }),
    linkAccess: new LinkAccessService({
      links: repos.links,
      failures: repos.failures,
      mailer,
      audit,
      limits: options.linkLimits,
    }),
    viewerTokens: new ViewerTokenService({
      tokens: repos.viewerTokens,
      sessions: repos.sessions,
      users: repos.users,
      audit,
    }),
  };
  const sends = new SendService({
    sends: repos.sends,
    studies: repos.studies,
    users: repos.users,
    jobs: jobQueue,
    mailer,
    audit,
    publicUrl: config.publicUrl,
    onDelivered: (copyUuid) => routing.noteShared(copyUuid),
  });
  jobRunner.register(sends.handler());
  routing.connect({ shares: services.shares, pushes: services.pushes, sends, webhooks });
  const routingRules = new RoutingRuleService({
    rules: repos.routingRules,
    accounts: repos.accounts,
    nodes: repos.dicomNodes,
    destinations: repos.destinations,
    webhooks: repos.webhooks,
    sends: repos.sends,
    audit,
  });
  const sendAccess = new SendAccessService({
    sends: repos.sends,
    studies: repos.studies,
    users: repos.users,
    accounts: repos.accounts,
    failures: repos.failures,
    downloads: services.downloads,
    mailer,
    audit,
    limits: options.linkLimits,
  });
  return {
    config,
    db,
    repos,
    services: {
      ...services,
      sends,
      sendAccess,
      routing,
      routingRules,
      webhooks,
      auditLog: new AuditLogService(repos.audit),
      labels: new LabelService({ labels: repos.labels, audit }),
      accountSettings: new AccountSettingsService({ settings: repos.settings, audit, callingAes }),
    },
  };
}

export type AppContext = ReturnType<typeof createContext>;
