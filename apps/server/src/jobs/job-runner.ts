import type { JobRow, JobsRepository } from '../repositories/jobs.repository.js';
import type { JobDefinition } from './job-definition.js';
import { parsePayload } from './job-definition.js';

/** What a handler throws when retrying cannot help (the job fails at once, keeping the message). */
export class PermanentJobError extends Error {}

/** The reason of a job's abort signal when its runner lost the lease (another runner may hold it now). */
export class LeaseLostError extends Error {}

export interface JobHandler<P> {
  /** The kind this handler runs (see job-kinds.ts); its payload schema is checked at every claim. */
  job: JobDefinition<P>;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** Delay before retry n (1-based) of this kind, instead of the runner's. */
  backoffMs?: (attempt: number) => number;
  /** Jobs of this kind one process runs at once (default 1; the runner's `concurrency` overrides it). */
  concurrency?: number;
  /**
   * Runs the job. `signal` aborts when this runner lost the job's lease: stop soon, as another
   * runner may take the job over; whatever the handler answers then is not recorded.
   */
  run(payload: P, job: JobRow, signal: AbortSignal): Promise<void>;
  /** Called once when the job fails for good (after its last attempt). */
  onFailed?(payload: P, error: string): Promise<void>;
}

/**
 * A handler of any kind, as a module lists its jobs for the composition root to register: the
 * runner parses each payload against the handler's own kind when it claims a job.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyJobHandler = JobHandler<any>;

export interface JobRunnerOptions {
  jobs: JobsRepository;
  /**
   * This run of this process (`<PROCESS_ID>/<run id>`), recorded on every job it claims: the run
   * marker keeps it, so the next start after an unclean stop gives back at once what it held.
   */
  owner?: string;
  log: (line: string) => void;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /**
   * How long a claim holds a job without renewal; the runner renews it every third of this while
   * the job runs, so only a runner that died (or lost the database) lets it run out.
   */
  leaseMs?: number;
  /** Delay before retry n (1-based). */
  backoffMs?: (attempt: number) => number;
  /** Slots per kind in this process (JOB_CONCURRENCY), overriding the handlers' own. */
  concurrency?: Record<string, number>;
  now?: () => number;
}

export const DEFAULT_BACKOFF = (attempt: number) => Math.min(5_000 * 2 ** (attempt - 1), 10 * 60_000);

/**
 * Runs the durable jobs of the registered kinds. Each kind has its own slots in this process, so a
 * mail never waits behind a long push; any number of processes may run jobs, as a job is claimed
 * with a lease (see JobsRepository). While a job runs its lease is renewed; a runner that cannot
 * renew it (another runner took it over after the lease ran out, or the database stayed unreachable
 * until it ran out) aborts the handler's signal and records nothing of that run. Jobs are rows, so
 * a restart loses nothing: queued jobs wait, and a job whose runner died is claimed again once its
 * lease runs out, or at once by the same process restarted (main.ts gives back what its previous
 * run held). stop() waits for the jobs in progress.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler<never>>();
  private readonly active = new Map<string, number>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly backoff: (attempt: number) => number;
  private readonly now: () => number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  /** A kick that came while the loop was busy: its next sleep returns at once. */
  private kicked = false;

  constructor(private readonly options: JobRunnerOptions) {
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.backoff = options.backoffMs ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
  }

  /** This run of this process, as recorded on the jobs it holds. */
  get owner(): string | undefined {
    return this.options.owner;
  }

  register<P>(handler: JobHandler<P>): this {
    if (this.handlers.has(handler.job.kind)) throw new Error(`Job kind ${handler.job.kind} registered twice`);
    this.handlers.set(handler.job.kind, handler as unknown as JobHandler<never>);
    return this;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  /** Looks for due jobs now instead of at the next poll (after enqueueing a job due now). */
  kick(): void {
    if (this.wake) this.wake();
    else this.kicked = true;
  }

  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
    await Promise.all(this.inFlight);
  }

  /** Claims one due job of a kind with a free slot and runs it to the end; answers whether there was one. */
  async runOne(): Promise<boolean> {
    const job = await this.claim();
    if (!job) return false;
    await this.execute(job);
    return true;
  }

  private claim(): Promise<JobRow | undefined> {
    const kinds = [...this.handlers.keys()].filter((kind) => (this.active.get(kind) ?? 0) < this.slots(kind));
    return this.options.jobs.claim(kinds, this.now(), this.leaseMs, this.options.owner ?? null);
  }

  private slots(kind: string): number {
    return this.options.concurrency?.[kind] ?? this.handlers.get(kind)?.concurrency ?? 1;
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      let job: JobRow | undefined;
      try {
        job = await this.claim();
      } catch (error) {
        // The database was unreachable or closing: wait for the next poll.
        this.options.log(`Job runner: ${String(error)}`);
      }
      if (!job) {
        if (this.running) await this.sleep();
        continue;
      }
      // Not awaited: the loop goes on claiming for the kinds that still have a free slot.
      const run = this.execute(job).finally(() => {
        this.inFlight.delete(run);
        this.kick();
      });
      this.inFlight.add(run);
    }
  }

  /** Runs one claimed job in one of its kind's slots, renewing its lease, and records the outcome. */
  private async execute(job: JobRow): Promise<void> {
    const handler = this.handlers.get(job.kind)!;
    this.active.set(job.kind, (this.active.get(job.kind) ?? 0) + 1);
    const controller = new AbortController();
    const heartbeat = this.heartbeat(job, controller);
    try {
      let payload: never;
      try {
        payload = parsePayload(handler.job, JSON.parse(job.payload));
      } catch (error) {
        // A row that no longer fits its kind (written by hand or an older release): retrying cannot help.
        await this.options.jobs.fail(job, errorMessage(error), null, this.now());
        this.options.log(`Job ${job.kind} #${job.id} failed for good: ${errorMessage(error)}`);
        return;
      }
      let failure: unknown;
      let failed = false;
      try {
        await handler.run(payload, job, controller.signal);
      } catch (error) {
        failed = true;
        failure = error;
      }
      await heartbeat.stop();
      if (controller.signal.aborted) {
        this.options.log(`Job ${job.kind} #${job.id} attempt ${job.attempts} lost its lease; not recorded`);
        return;
      }
      if (!failed) {
        if (!(await this.options.jobs.complete(job, this.now())))
          this.options.log(
            `Job ${job.kind} #${job.id} attempt ${job.attempts} finished after losing its lease`,
          );
        return;
      }
      const message = errorMessage(failure);
      const last = failure instanceof PermanentJobError || job.attempts >= (handler.maxAttempts ?? 5);
      const recorded = await this.options.jobs.fail(
        job,
        message,
        last ? null : this.now() + (handler.backoffMs ?? this.backoff)(job.attempts),
        this.now(),
      );
      if (last && recorded) await handler.onFailed?.(payload, message);
      this.options.log(
        `Job ${job.kind} #${job.id} attempt ${job.attempts} failed${last ? ' for good' : ''}: ${message}`,
      );
    } catch (error) {
      // Recording the outcome failed (database gone): the lease runs out and the job is retried.
      this.options.log(`Job ${job.kind} #${job.id}: ${String(error)}`);
    } finally {
      await heartbeat.stop();
      this.active.set(job.kind, this.active.get(job.kind)! - 1);
    }
  }

  /**
   * Renews the job's lease every third of it while it runs. A renewal refused (the claim is no
   * longer ours) aborts the job; so does reaching the end of the lease without a renewal getting
   * through, as from then on another runner may claim it.
   */
  private heartbeat(job: JobRow, controller: AbortController) {
    let lockedUntil = Number(job.locked_until);
    let renewing: Promise<void> | undefined;
    const lost = (reason: string) => {
      clearInterval(timer);
      controller.abort(new LeaseLostError(`Job ${job.kind} #${job.id}: ${reason}`));
    };
    const renew = async () => {
      const now = this.now();
      try {
        if (await this.options.jobs.renew(job, now, this.leaseMs)) lockedUntil = now + this.leaseMs;
        else lost('another runner holds the job');
      } catch {
        if (this.now() >= lockedUntil) lost('its lease ran out while the database was unreachable');
      }
    };
    const timer = setInterval(
      () => {
        if (renewing || controller.signal.aborted) return;
        renewing = renew().finally(() => {
          renewing = undefined;
        });
      },
      Math.max(10, Math.floor(this.leaseMs / 3)),
    );
    timer.unref();
    return {
      async stop() {
        clearInterval(timer);
        await renewing;
      },
    };
  }

  private sleep(): Promise<void> {
    if (this.kicked) {
      this.kicked = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => this.wake?.(), this.pollMs);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        this.wake = undefined;
        resolve();
      };
    });
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
