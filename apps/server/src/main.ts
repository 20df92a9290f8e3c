import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { ConfigError, loadConfig } from './config.js';
import type { Config } from './config.js';
import { createContext } from './context.js';
import type { AppContext } from './context.js';
import { openDatabase } from './db/dialect.js';
import { makeIndexDurable } from './db/index-durability.js';
import type { RecoveryReport } from './ingest/recovery-scan.js';
import { FileBlobStore } from './storage/file-blob-store.js';
import { RunMarker } from './storage/run-marker.js';
import { migrateToLatest } from './db/migrate.js';
import { withStartupLock } from './db/startup-lock.js';
import { DicomListener } from './dimse/listener.js';
import type { DicomTlsOptions } from './dimse/listener.js';
import { MllpListener } from './hl7/mllp-listener.js';
import { buildHttpApp } from './http/app.js';
import { seedDemo } from './seed/seed-demo.js';
import { startDemoSso } from './seed/demo-sso.js';
import { startDemoSamlSso } from './seed/demo-sso-saml.js';
import { startPurgeTimer } from './modules/studies/index.js';
import { startUploadSweepTimer } from './ingest/upload-sweep-timer.js';
import { startDestinationEchoTimer } from './modules/pacs/index.js';
import { harvestMailInterval, startHarvestMailTimer } from './notifications/harvest-mail-timer.js';
import { missingNodeFlags } from './runtime-flags.js';

export interface RunningServer {
  ctx: AppContext;
  http: FastifyInstance;
  url: string;
  /** The port the DICOM listener is bound to (DICOM_PORT, or the free port picked for 0). */
  dicomPort: number;
  /** The DICOM TLS listener's bound port, when DICOM_TLS_PORT is set. */
  dicomTlsPort: number | undefined;
  /** The port the HL7 MLLP listener is bound to; undefined when HL7_PORT is not set. */
  hl7Port: number | undefined;
  /** The recovery scan this start ran after an unclean stop; undefined after a clean one. */
  recovery: RecoveryReport | undefined;
  stop(): Promise<void>;
}

/**
 * Boot order: config → database (migrated, and the demo seed on a new database, both under the
 * start-up lock: db/startup-lock.ts) → recovery scan after an unclean stop, and the jobs the
 * previous run held given back → run marker → HTTP → DICOM listener → purge timer and job runner.
 * Stopping reverses it, waiting for a job in progress, and records the clean stop only once every
 * index commit is durable.
 */
export async function startServer(
  config: Config,
  log: (line: string) => void = console.log,
): Promise<RunningServer> {
  const db = openDatabase(config, { checkpoints: true, log });
  const ctx = await withStartupLock(db, async () => {
    await migrateToLatest(db);
    const ctx = createContext(config, db, { log });
    if (config.seedDemo && !(await hasAnyAccount(ctx))) {
      const { password, generated } = await seedDemo(ctx, {
        password: config.demoPassword,
        studies: config.seedStudies,
        nominations: config.seedNominations,
        log,
      });
      if (generated) log(`Demo password (shown once): ${password}`);
    }
    return ctx;
  });
  // Audit events queue for the collector (or stop queueing) before any listener can record one.
  const atna = await ctx.startAtna(log);
  const blobs = ctx.services.blobs;
  if (blobs instanceof FileBlobStore) {
    const { records, restored, blocked } = blobs.journalReplay;
    if (restored > 0) log(`Intake journal: ${restored} of ${records} received file(s) written again`);
    for (const key of blocked)
      log(`Intake journal: ${key} not written again: a file stands where its directory belongs`);
  }
  // Bodies a crashed run was still receiving (none was answered): this process's own staging area.
  const staged = await ctx.services.blobs.clearStaging();
  if (staged.files > 0)
    log(`Removed ${staged.files} staged file(s) (${staged.bytes} bytes) left by the last run`);
  const marker = new RunMarker(config.dataDir, config.processIdFixed ? config.processId : undefined);
  const uncleanStart = marker.previousUncleanStart();
  let recovery: RecoveryReport | undefined;
  if (uncleanStart !== undefined) {
    // Before anything can store: rows lost with unsynced commits are rebuilt from their files.
    recovery = await ctx.services.recovery.scan(uncleanStart);
    log(
      `Recovery scan after an unclean stop: ${recovery.recovered} instance(s) indexed again, ` +
        `${recovery.files} recent file(s) in ${recovery.directories} director(ies) checked, ` +
        `${recovery.skipped} skipped, ${recovery.partial} partial, ${recovery.unacknowledged} unacknowledged ` +
        `(${recovery.removed} removed, ${recovery.deferred} left to the collector's grace period), ` +
        `${recovery.refused} refused and removed, ${recovery.missingFiles} row(s) without file, ${recovery.ms} ms`,
    );
    // The jobs that run held (claimed, or the recovery of a call it was finishing, as study/process)
    // are due now rather than when their lease or due time runs out: that run is gone for sure, as
    // its marker is this process's own. Any other process's jobs are left to their leases.
    const previousRun = marker.previousRun();
    if (previousRun) {
      const released = await ctx.repos.jobs.releaseHeldBy(previousRun, Date.now());
      if (released > 0) log(`Jobs: ${released} job(s) held by the previous run (${previousRun}) resumed`);
    }
  }
  marker.set(ctx.services.jobRunner.owner);
  const http = await buildHttpApp(ctx, {
    logLevel: config.logLevel,
    webDist: config.webDist,
    maxUploadBytes: config.uploadMaxBytes,
    trustProxy: config.trustProxy,
  });
  const url = await http.listen({ port: config.port, host: config.host });
  log(`Imaging Inbox (process ${config.processId}) listening on ${url}`);
  // DEMO_SSO=1 or saml: a local identity provider the demo account signs in through (docs/sso.md).
  const demoIdp =
    config.demoSso === 'saml'
      ? await startDemoSamlSso(ctx, config.publicUrl)
      : config.demoSso === 'oidc'
        ? await startDemoSso(ctx, config.publicUrl)
        : undefined;
  if (demoIdp)
    log(
      `Demo identity provider on ${demoIdp.issuer} (sign in there with a demo user's e-mail and ` +
        (config.demoPassword ? 'the demo password)' : `the password ${demoIdp.password})`),
    );
  const dicom = new DicomListener({
    aeTitle: config.dicomAet,
    nodes: ctx.repos.dicomNodes,
    ingest: ctx.services.ingest,
    blobs: ctx.services.blobs,
    deliveries: ctx.dicomHandlers.moveDeliveries,
    commitments: ctx.dicomHandlers.storageCommitments,
    queries: ctx.services.queries,
    timeouts: config.dicomTimeouts,
    maxConnections: config.dicomMaxConnections,
    meter: ctx.services.metrics,
    log,
  });
  let dicomPort: number;
  try {
    dicomPort = await dicom.start(config.dicomPort, config.host);
  } catch (error) {
    await http.close();
    await db.close();
    marker.clear();
    throw error;
  }
  log(`DICOM listener ${config.dicomAet} on ${config.host}:${dicomPort}`);
  let dicomTlsPort: number | undefined;
  if (config.dicomTls) {
    try {
      dicomTlsPort = await dicom.startTls(config.dicomTls.port, config.host, readDicomTls(config.dicomTls));
    } catch (error) {
      await dicom.stop();
      await http.close();
      await db.close();
      marker.clear();
      throw error;
    }
    log(`DICOM TLS listener ${config.dicomAet} on ${config.host}:${dicomTlsPort}`);
  }
  const hl7 = config.hl7.port === undefined ? undefined : startHl7(ctx, config, log);
  let hl7Port: number | undefined;
  if (hl7) {
    try {
      hl7Port = await hl7.start(config.hl7.port!, config.host);
    } catch (error) {
      await dicom.stop();
      await http.close();
      await db.close();
      marker.clear();
      throw error;
    }
    log(`HL7 MLLP listener on ${config.host}:${hl7Port}`);
  }
  const purgeTimer = startPurgeTimer(ctx.services.purge, log);
  const uploadSweep = startUploadSweepTimer(ctx.services.uploadSessions, log);
  const destinationEcho = startDestinationEchoTimer(
    ctx.services.destinations,
    log,
    config.destinationEchoTickMs,
  );
  const harvestMailTimer = startHarvestMailTimer(
    ctx.services.harvestNotifier,
    log,
    harvestMailInterval(config.harvestMailQuietMs),
  );
  ctx.services.jobRunner.start();
  return {
    ctx,
    http,
    url,
    dicomPort,
    dicomTlsPort,
    hl7Port,
    recovery,
    async stop() {
      await demoIdp?.stop();
      ctx.services.readiness.drain();
      await purgeTimer.stop();
      await uploadSweep.stop();
      await destinationEcho.stop();
      await harvestMailTimer.stop();
      await atna.stop();
      await ctx.services.jobRunner.stop();
      await hl7?.stop();
      await dicom.stop();
      await http.close();
      await ctx.services.blobs.close();
      await makeIndexDurable(db);
      await db.close();
      marker.clear();
    },
  };
}

/** The HL7 v2 listener (orders and results), answering each message through the HL7 inbox. */
function startHl7(ctx: AppContext, config: Config, log: (line: string) => void): MllpListener {
  const inbox = ctx.services.hl7;
  return new MllpListener({
    handle: (message, peer) => inbox.handle(message, peer),
    tooLarge: () => inbox.tooLarge(config.hl7.maxMessageBytes),
    maxMessageBytes: config.hl7.maxMessageBytes,
    idleMs: config.hl7.idleMs,
    maxConnections: config.hl7.maxConnections,
    maxConnectionsPerAddress: config.hl7.maxConnectionsPerAddress,
    messageDeadlineMs: config.hl7.messageDeadlineMs,
    log,
  });
}

async function hasAnyAccount(ctx: AppContext): Promise<boolean> {
  const row = await ctx.db.kysely.selectFrom('accounts').select('uuid').limit(1).executeTakeFirst();
  return row !== undefined;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(2);
    }
    throw error;
  }
  const server = await startServer(config);
  const missing = missingNodeFlags();
  if (missing.length) {
    console.warn(
      `Started without ${missing.join(' ')} for node: scripts/serve.sh passes them (src/runtime-flags.ts says why).`,
    );
  }
  let stopping = false;
  const shutdown = () => {
    if (stopping) return;
    stopping = true;
    // Not ready from now on, so a load balancer sends new work elsewhere while this still serves.
    server.ctx.services.readiness.drain();
    setTimeout(() => {
      server.stop().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }, config.drainMs);
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}

/** The TLS listener's certificate, key and CA read from their files; a missing file stops the start with its name. */
function readDicomTls(settings: NonNullable<Config['dicomTls']>): DicomTlsOptions {
  const read = (file: string, variable: string) => {
    try {
      return fs.readFileSync(file);
    } catch (error) {
      throw new ConfigError(`${variable}: cannot read ${file}: ${(error as Error).message}`);
    }
  };
  return {
    cert: read(settings.certFile, 'DICOM_TLS_CERT_FILE'),
    key: read(settings.keyFile, 'DICOM_TLS_KEY_FILE'),
    ca: settings.caFile ? read(settings.caFile, 'DICOM_TLS_CA_FILE') : undefined,
  };
}
