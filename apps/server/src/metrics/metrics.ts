import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What the job-queue gauges read at each scrape (JobsRepository.queueStats). */
export type QueueStats = (
  now: number,
) => Promise<{ kind: string; due: number; oldestDue: number | null; running: number }[]>;

/**
 * This process's Prometheus metrics, served as text at /metrics: request latency by route, the
 * job queue by kind (read from the database at each scrape, so every process shows the whole
 * queue), instances and bytes ingested by source, DICOM associations by outcome. Every series
 * carries `process` (PROCESS_ID). One registry per process context, not prom-client's global one,
 * so several servers in one test process keep their counts apart. Labels are route patterns and
 * fixed words only: never an id, a name or anything from a study.
 */
export class Metrics {
  private readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly instances: Counter<'source'>;
  private readonly bytes: Counter<'source'>;
  private readonly associations: Counter<'outcome'>;

  constructor(processId: string, queueStats: QueueStats, now: () => number = Date.now) {
    const registers = [this.registry];
    this.registry.setDefaultLabels({ process: processId });
    this.requests = new Histogram({
      name: 'imaging_inbox_http_request_duration_seconds',
      help: 'HTTP request latency by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.instances = new Counter({
      name: 'imaging_inbox_ingest_instances_total',
      help: 'Instances stored and indexed, by source (upload, stow, cstore, link, wrap, retrieve, ...)',
      labelNames: ['source'],
      registers,
    });
    this.bytes = new Counter({
      name: 'imaging_inbox_ingest_bytes_total',
      help: 'Bytes of the instances stored and indexed, by source',
      labelNames: ['source'],
      registers,
    });
    this.associations = new Counter({
      name: 'imaging_inbox_dimse_associations_total',
      help: 'DICOM associations received, by outcome (accepted, rejected)',
      labelNames: ['outcome'],
      registers,
    });
    // One query answers all three queue gauges of a scrape.
    let reading: Promise<Awaited<ReturnType<QueueStats>>> | undefined;
    const stats = () => {
      reading ??= queueStats(now()).finally(() => setImmediate(() => (reading = undefined)));
      return reading;
    };
    new Gauge({
      name: 'imaging_inbox_jobs_due',
      help: 'Jobs due and waiting for a runner, by kind',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        for (const s of await stats()) this.set({ kind: s.kind }, s.due);
      },
    });
    new Gauge({
      name: 'imaging_inbox_jobs_oldest_due_age_seconds',
      help: 'How long the oldest waiting job of each kind has been due',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        const at = now();
        for (const s of await stats())
          if (s.oldestDue !== null) this.set({ kind: s.kind }, Math.max(0, (at - s.oldestDue) / 1000));
      },
    });
    new Gauge({
      name: 'imaging_inbox_jobs_running',
      help: 'Jobs running (in any process), by kind',
      labelNames: ['kind'],
      registers,
      async collect() {
        this.reset();
        for (const s of await stats()) this.set({ kind: s.kind }, s.running);
      },
    });
  }

  /**
   * A gauge a module reads at each scrape (the audit queue's size, its oldest event's age): the
   * module owns what it counts, the registry and the `process` label stay here.
   */
  gauge(name: string, help: string, read: () => Promise<number | null>): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        this.reset();
        const value = await read();
        if (value !== null) this.set(value);
      },
    });
  }

  /** A finished HTTP request; `route` is the matched pattern (undefined: no route matched). */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.requests.observe({ method, route: route ?? 'unmatched', status: String(status) }, seconds);
  }

  ingested(source: string, bytes: number): void {
    this.instances.inc({ source });
    this.bytes.inc({ source }, bytes);
  }

  association(outcome: 'accepted' | 'rejected'): void {
    this.associations.inc({ outcome });
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }
}
