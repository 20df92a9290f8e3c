import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { JobsRepository } from '../repositories/jobs.repository.js';
import type { JobDefinition } from './job-definition.js';
import { parsePayload } from './job-definition.js';

export interface EnqueueOptions {
  /** When the job is due (default now). */
  runAt?: number;
  /** A second enqueue with a key already queued or run answers the existing job instead. */
  dedupeKey?: string;
  /**
   * The job is the recovery of work this call does itself meanwhile: it is recorded as held by this
   * run, so if the process dies first its restart runs the job at once instead of at `runAt`.
   */
  held?: boolean;
}

/**
 * Where jobs are enqueued: the payload is checked against its kind's schema first, so a bad payload
 * throws InvalidJobPayloadError and writes nothing. kick() tells the runner of this process that a
 * job is due now (call it once the transaction that enqueued it committed).
 */
export class JobQueue {
  constructor(
    private readonly deps: {
      jobs: JobsRepository;
      kick: () => void;
      /** This run of this process (as its JobRunner's owner). */
      owner?: string;
      now?: () => number;
    },
  ) {}

  /** Adds a job of the given kind; pass a transaction as `db` to enqueue it with its change. */
  async enqueue<P>(
    definition: JobDefinition<P>,
    payload: P,
    options: EnqueueOptions = {},
    db?: Kysely<Database>,
  ): Promise<number> {
    const parsed = parsePayload(definition, payload);
    const now = (this.deps.now ?? Date.now)();
    return this.deps.jobs.enqueue(
      {
        kind: definition.kind,
        payload: parsed,
        runAt: options.runAt ?? now,
        dedupeKey: options.dedupeKey,
        limit: definition.limit?.(parsed),
        heldBy: options.held ? this.deps.owner : undefined,
      },
      now,
      db,
    );
  }

  /** Cancels a job that has not started; false once it runs or ran. */
  cancel(id: number): Promise<boolean> {
    return this.deps.jobs.cancel(id, (this.deps.now ?? Date.now)());
  }

  kick(): void {
    this.deps.kick();
  }
}
