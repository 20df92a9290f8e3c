import { randomUUID } from 'node:crypto';
import type { Config } from '../config.js';
import type { Db } from '../db/dialect.js';
import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import { ViewerTokenService } from '../dicomweb/viewer-token.service.js';
import { ViewerTokensRepository } from '../dicomweb/viewer-tokens.repository.js';
import { HealthRepository } from '../health/health.repository.js';
import { Readiness } from '../health/readiness.service.js';
import { IngestService } from '../ingest/ingest.service.js';
import { IngestRecovery } from '../ingest/recovery-scan.js';
import { uploadAnswer } from '../ingest/upload-answer.js';
import { UploadSessionService } from '../ingest/upload-session.service.js';
import { JobQueue } from '../jobs/job-queue.js';
import { JobRunner } from '../jobs/job-runner.js';
import { MailLanguages } from '../mail/mail-language.js';
import { Mailer } from '../mail/mailer.js';
import { mailDeliveryJob } from '../mail/mail-delivery-job.js';
import { Metrics } from '../metrics/metrics.js';
import { HarvestNotifier } from '../notifications/harvest-notifier.js';
import { AccessService, StudyAccess } from '../policies/index.js';
import { AccountsRepository } from '../repositories/accounts.repository.js';
import { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';
import { BlobReferencesRepository } from '../repositories/blob-references.repository.js';
import { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import { DicomwebRepository } from '../repositories/dicomweb.repository.js';
import { HarvestNoticesRepository } from '../repositories/harvest-notices.repository.js';
import { IngestRepository } from '../repositories/ingest.repository.js';
import { JobsRepository } from '../repositories/jobs.repository.js';
import { MembershipsRepository } from '../repositories/memberships.repository.js';
import { OutboxRepository } from '../repositories/outbox.repository.js';
import { SessionsRepository } from '../repositories/sessions.repository.js';
import { SettingsRepository } from '../repositories/settings.repository.js';
import { StudiesRepository } from '../repositories/studies.repository.js';
import { RECENT_DEFAULTS } from '../repositories/study-recent-window.sql.js';
import { UploadSessionsRepository } from '../repositories/upload-sessions.repository.js';
import { UserEventsRepository } from '../repositories/user-events.repository.js';
import { UsersRepository } from '../repositories/users.repository.js';
import { BlobCollector } from '../storage/blob-collector.js';
import type { BlobStore } from '../storage/blob-store.js';
import { FileBlobStore } from '../storage/file-blob-store.js';
import { ObjectUploadChunkStore } from '../storage/object-upload-chunk-store.js';
import { S3BlobStore } from '../storage/s3-blob-store.js';
import { UploadChunkStore } from '../storage/upload-chunk-store.js';
import { StudyEvents } from './study-events.js';
import { StudyExtrasRegistry } from './study-extras.js';

/**
 * What every workflow module is built on (decision 0059): the database and the kernel's own tables,
 * blobs, the audit trail, mail, the durable job runner and queue, the access policy's lookups, the
 * ingest pipeline, and the two places modules plug into it: study events and study extras.
 */
export function createKernel(config: Config, db: Db, log: (line: string) => void) {
  const k = db.kysely;
  const repos = {
    users: new UsersRepository(k),
    sessions: new SessionsRepository(k),
    failures: new AuthFailuresRepository(k, db.dialect),
    settings: new SettingsRepository(k),
    accounts: new AccountsRepository(k),
    memberships: new MembershipsRepository(k),
    // Date ranges read the newest studies first on SQLite only: PostgreSQL keeps its sorted read
    // of the date index's matches, the plan it was measured with (decision 0082).
    studies: new StudiesRepository(k, db.dialect === 'sqlite' ? RECENT_DEFAULTS : null),
    dicomweb: new DicomwebRepository(k),
    ingest: new IngestRepository(k, db.dialect, db.sqlite),
    audit: new AuditRepository(k),
    outbox: new OutboxRepository(k),
    dicomNodes: new DicomNodesRepository(k),
    uploadSessions: new UploadSessionsRepository(k),
    viewerTokens: new ViewerTokensRepository(k),
    userEvents: new UserEventsRepository(k),
    harvestNotices: new HarvestNoticesRepository(k),
    jobs: new JobsRepository(k, db.dialect),
  };
  const audit = new AuditService(repos.audit);
  /**
   * This run of this process, holding the jobs it claims (and the recovery jobs of work its calls
   * do themselves); main.ts keeps it in the run marker for the next start after an unclean stop.
   */
  const runOwner = `${config.processId}/${randomUUID()}`;
  /** Durable jobs of this process; main.ts starts and stops it, each module's jobs are registered on it. */
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
  jobRunner.register(mailDeliveryJob(mailer));
  const blobs: BlobStore = config.s3
    ? new S3BlobStore(config.dataDir, config.s3)
    : new FileBlobStore(config.dataDir, config.blobDir, { directoriesAhead: config.blobDirectoriesAhead });
  const collector = new BlobCollector(blobs, new BlobReferencesRepository(k), config.blobGraceMs);
  const access = new AccessService(repos.memberships);
  /** The access policy's study lookups: every route and service finds a requested study through it. */
  const studyAccess = new StudyAccess({ studies: repos.studies, dicomweb: repos.dicomweb });
  /** What modules add to a study's answer (kernel/study-extras.ts). */
  const studyExtras = new StudyExtrasRegistry();
  /** What happens to studies, heard by the modules that act on it (kernel/study-events.ts). */
  const events = new StudyEvents();
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
  events.listen({ stored: (event) => harvestNotifier.noteStored(event) });
  const metrics = new Metrics(config.processId, (now) => repos.jobs.queueStats(now));
  const ingest = new IngestService({
    repo: repos.ingest,
    blobs,
    collector,
    audit,
    meter: metrics,
    onStored: (event) => events.stored(event),
    maxInflatedBytes: config.uploadMaxBytes,
  });
  const services = {
    jobRunner,
    metrics,
    readiness: new Readiness({ health: new HealthRepository(k), blobs, processId: config.processId }),
    audit,
    mailer,
    blobs,
    access,
    harvestNotifier,
    studyAccess,
    ingest,
    recovery: new IngestRecovery({
      repo: repos.ingest,
      nodes: repos.dicomNodes,
      blobs,
      ingest,
      collector,
      aeTitle: config.dicomAet,
      rowsMayBeLost: db.dialect === 'sqlite',
      log,
    }),
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
    viewerTokens: new ViewerTokenService({
      tokens: repos.viewerTokens,
      sessions: repos.sessions,
      users: repos.users,
      audit,
    }),
  };
  return {
    config,
    db,
    log,
    repos,
    services,
    audit,
    mailer,
    blobs,
    collector,
    jobs: jobQueue,
    studyAccess,
    studyExtras,
    events,
    /** The host answers name the engine by (study answers' engine_fqdn). */
    engineFqdn: new URL(config.publicUrl).host,
  };
}

export type Kernel = ReturnType<typeof createKernel>;
