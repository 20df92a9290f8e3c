import type { JobRow, JobsRepository } from '../repositories/jobs.repository.js';

/** What a handler throws when retrying cannot help (the job fails at once, keeping the message). */
export class PermanentJobError extends Error {}

export interface JobHandler<P = unknown> {
  kind: string;
  /** Attempts before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** Delay before retry n (1-based) of this kind, instead of the runner's. */
  backoffMs?: (attempt: number) => number;
  run(payload: P, job: JobRow): Promise<void>;
  /** Called once when the job fails for good (after its last attempt). */
  onFailed?(payload: P, error: string): Promise<void>;
}

export interface JobRunnerOptions {
  jobs: JobsRepository;
  log: (line: string) => void;
  /** How often an idle runner looks for due jobs. */
  pollMs?: number;
  /** How long a claim holds a job; a runner that dies mid-job frees it after this. */
  leaseMs?: number;
  /** Delay before retry n (1-based). */
  backoffMs?: (attempt: number) => number;
  now?: () => number;
}

export const DEFAULT_BACKOFF = (attempt: number) => Math.min(5_000 * 2 ** (attempt - 1), 10 * 60_000);

/**
 * Runs the durable jobs of the registered kinds, one at a time in this process; any number of
 * processes may run one each, as a job is claimed with a lease (see JobsRepository). Jobs are rows,
 * so a restart loses nothing: queued jobs wait, and a job whose runner died is claimed again once
 * its lease runs out. stop() waits for the job in progress.
 */
export class JobRunner {
  private readonly handlers = new Map<string, JobHandler<never>>();
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly backoff: (attempt: number) => number;
  private readonly now: () => number;
  private running = false;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: JobRunnerOptions) {
    this.pollMs = options.pollMs ?? 1_000;
    this.leaseMs = options.leaseMs ?? 5 * 60_000;
    this.backoff = options.backoffMs ?? DEFAULT_BACKOFF;
    this.now = options.now ?? Date.now;
  }

  register<P>(handler: JobHandler<P>): this {
    this.handlers.set(handler.kind, handler);
    return this;
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.runLoop();
  }

  /** Looks for due jobs now instead of at the next poll (after enqueueing a job due now). */
  kick(): void {
    this.wake?.();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.kick();
    await this.loop;
  }

  /** Claims and runs one due job; answers whether there was one. */
  async runOne(): Promise<boolean> {
    const job = await this.options.jobs.claim([...this.handlers.keys()], this.now(), this.leaseMs);
    if (!job) return false;
    const handler = this.handlers.get(job.kind)!;
    try {
      await handler.run(JSON.parse(job.payload) as never, job);
      await this.options.jobs.complete(job, this.now());
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const permanent = error instanceof PermanentJobError;
      const last = permanent || job.attempts >= (handler.maxAttempts ?? 5);
      await this.options.jobs.fail(
        job,
        message,
        last ? null : this.now() + (handler.backoffMs ?? this.backoff)(job.attempts),
        this.now(),
      );
      if (last) await handler.onFailed?.(JSON.parse(job.payload) as never, message);
      this.options.log(
        `Job ${job.kind} #${job.id} attempt ${job.attempts} failed${last ? ' for good' : ''}: ${message}`,
      );
    }
    return true;
  }

  private async runLoop(): Promise<void> {
    while (this.running) {
      let ran = false;
      try {
        ran = await this.runOne();
      } catch (error) {
        // The database was unreachable or closing: wait for the next poll.
        this.options.log(`Job runner: ${String(error)}`);
      }
      if (!ran && this.running) await this.sleep();
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      this.wake = () => {
        clearTimeout(this.timer);
        this.wake = undefined;
        resolve();
      };
      this.timer = setTimeout(this.wake, this.pollMs);
      this.timer.unref();
    });
  }
}
