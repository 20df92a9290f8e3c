import type { Kysely, Selectable } from 'kysely';
import type { DialectName } from '../db/dialect.js';
import type { Database, JobTable } from '../db/schema.js';

export type JobRow = Selectable<JobTable>;
export type JobStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

/**
 * The durable job queue (table `jobs`). A job is claimed by one runner at a time with a lease: the
 * claim is a single guarded UPDATE (`status='queued' AND run_at<=now`, or a running job whose lease
 * ran out), so two processes racing for the same row cannot both win. On PostgreSQL the candidate
 * is first picked with FOR UPDATE SKIP LOCKED so concurrent runners pick different rows instead of
 * colliding; SQLite has one writer, so the guarded UPDATE alone suffices there.
 * Each claim increments `attempts`, which then identifies that claim when the job is finished.
 */
export class JobsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

  /**
   * Adds a job; with a dedupe key already queued or run, answers the existing job's id instead.
   * Pass a transaction as `db` to enqueue the job with the change it belongs to.
   */
  async enqueue(
    job: { kind: string; payload: unknown; runAt: number; dedupeKey?: string },
    now: number,
    db: Kysely<Database> = this.db,
  ) {
    const row = await db
      .insertInto('jobs')
      .values({
        kind: job.kind,
        payload: JSON.stringify(job.payload),
        status: 'queued',
        attempts: 0,
        run_at: job.runAt,
        locked_until: null,
        last_error: null,
        dedupe_key: job.dedupeKey ?? null,
        created: now,
        updated: now,
      })
      .onConflict((oc) => oc.column('dedupe_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (row) return Number(row.id);
    const existing = await db
      .selectFrom('jobs')
      .select('id')
      .where('dedupe_key', '=', job.dedupeKey ?? '')
      .executeTakeFirstOrThrow();
    return Number(existing.id);
  }

  find(id: number): Promise<JobRow | undefined> {
    return this.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Claims the next due job of the given kinds for leaseMs, or answers undefined. */
  async claim(kinds: string[], now: number, leaseMs: number): Promise<JobRow | undefined> {
    if (!kinds.length) return undefined;
    // A lost race (another runner took the candidate) simply tries the next candidate.
    for (let attempt = 0; attempt < 5; attempt++) {
      const claimed =
        this.dialect === 'postgres'
          ? await this.db.transaction().execute(async (trx) => {
              const candidate = await this.due(trx, kinds, now).forUpdate().skipLocked().executeTakeFirst();
              return candidate ? this.take(trx, candidate.id, now, leaseMs) : null;
            })
          : await (async () => {
              const candidate = await this.due(this.db, kinds, now).executeTakeFirst();
              return candidate ? this.take(this.db, candidate.id, now, leaseMs) : null;
            })();
      if (claimed === null) return undefined;
      if (claimed) return claimed;
    }
    return undefined;
  }

  private due(db: Kysely<Database>, kinds: string[], now: number) {
    return db
      .selectFrom('jobs')
      .select('id')
      .where('kind', 'in', kinds)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
  }

  /** The guarded claim of one row: undefined when another runner got there first. */
  private async take(db: Kysely<Database>, id: number, now: number, leaseMs: number) {
    const result = await db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        locked_until: now + leaseMs,
        updated: now,
      }))
      .where('id', '=', id)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
          eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
        ]),
      )
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /** Marks the claim done; false when the claim was lost (lease ran out and another runner took it). */
  async complete(job: JobRow, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'done', locked_until: null, last_error: null, updated: now })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a failed attempt: back to the queue at retryAt, or failed for good when retryAt is null. */
  async fail(job: JobRow, error: string, retryAt: number | null, now: number): Promise<void> {
    await this.db
      .updateTable('jobs')
      .set({
        status: retryAt === null ? 'failed' : 'queued',
        run_at: retryAt ?? job.run_at,
        locked_until: null,
        last_error: error.slice(0, 2000),
        updated: now,
      })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .execute();
  }

  /** Cancels a job that has not started; false once it runs or ran. */
  async cancel(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', updated: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
