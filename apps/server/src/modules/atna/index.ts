/** The atna module's one door: audit events sent to the security team's syslog collector (see README.md). */
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { AtnaConfig } from '../../audit/atna-config.js';
import type { Database } from '../../db/schema.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { AnyJobHandler } from '../../jobs/job-runner.js';
import type { PeriodicTask } from '../../jobs/periodic.js';
import type { Metrics } from '../../metrics/metrics.js';
import type { AtnaDatabase } from './atna-outbox.repository.js';
import { AtnaOutboxRepository } from './atna-outbox.repository.js';
import { atnaSendJob } from './atna-send-job.js';
import { AtnaSender } from './atna-sender.js';
import { startAtnaTimer } from './atna-timer.js';
import { openCollector } from './syslog-transport.js';

export { auditMessageXml } from './audit-message.js';
export type { QueuedEvent } from './audit-message.js';
export { codesFor } from './audit-codes.js';

/** What the module needs of the kernel. */
export interface AtnaKernel {
  db: { kysely: Kysely<Database> };
  jobs: Pick<JobQueue, 'enqueue' | 'kick'>;
  services: { metrics: Pick<Metrics, 'gauge'> };
  log: (line: string) => void;
}

/** What `start` turned on in this process; `stop` ends it. */
export interface AtnaRunning {
  stop(): Promise<void>;
}

/**
 * The ATNA module on the kernel: its sender job (registered only when a collector is configured),
 * the queue's gauges, and `start`, which main.ts calls once the database is migrated: it switches
 * the queueing of audit events on (configured) or off (not), and starts the timer that queues the
 * sender when events wait.
 */
export function createAtnaModule(kernel: AtnaKernel, config: AtnaConfig | undefined) {
  const outbox = new AtnaOutboxRepository(kernel.db.kysely as unknown as Kysely<AtnaDatabase>);
  const sender = config
    ? new AtnaSender({
        outbox,
        open: () => openCollector(config.collector),
        source: { sourceId: config.sourceId, siteId: config.siteId, appName: config.appName },
        header: { hostname: os.hostname(), appName: config.appName, procId: String(process.pid) },
      })
    : undefined;
  const jobs: readonly AnyJobHandler[] = sender && config ? [atnaSendJob(sender, config.retryMs)] : [];
  if (config) registerGauges(kernel.services.metrics, outbox, config.queueAlert);
  return {
    repos: { atnaOutbox: outbox },
    services: { atnaSender: sender },
    jobs,
    async start(log: (line: string) => void = kernel.log): Promise<AtnaRunning> {
      if (!config) {
        await outbox.switchOff();
        const { count } = await outbox.backlog();
        if (count) log(`ATNA: ${count} audit messages queued for a collector that is no longer configured`);
        return { stop: async () => {} };
      }
      await outbox.switchOn(Date.now());
      const orphans = await outbox.dropOrphans();
      if (orphans) log(`ATNA: ${orphans} queued messages had no audit event any more`);
      const timer: PeriodicTask = startAtnaTimer(
        { outbox, queue: kernel.jobs, alertAt: config.queueAlert },
        log,
      );
      return timer;
    },
  };
}

function registerGauges(metrics: Pick<Metrics, 'gauge'>, outbox: AtnaOutboxRepository, alertAt: number) {
  let reading: Promise<{ count: number; oldestAt: number | null }> | undefined;
  const backlog = () => {
    reading ??= outbox.backlog().finally(() => setImmediate(() => (reading = undefined)));
    return reading;
  };
  metrics.gauge(
    'imaging_inbox_atna_queue_messages',
    'Audit messages waiting for the syslog collector',
    async () => (await backlog()).count,
  );
  metrics.gauge(
    'imaging_inbox_atna_queue_oldest_age_seconds',
    'Age of the oldest audit message waiting for the syslog collector',
    async () => {
      const { oldestAt } = await backlog();
      return oldestAt === null ? 0 : Math.max(0, (Date.now() - oldestAt) / 1000);
    },
  );
  metrics.gauge(
    'imaging_inbox_atna_queue_alert',
    `1 while ATNA_QUEUE_ALERT (${alertAt}) or more audit messages wait for the syslog collector`,
    async () => ((await backlog()).count >= alertAt ? 1 : 0),
  );
}
