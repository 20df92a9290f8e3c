import type { ExpressionBuilder, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
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
 * Each claim increments `attempts`, which then identifies that claim when it renews its lease and
 * when the job is finished: a runner whose lease ran out and was taken over can no longer write.
 *
 * `locked_by` names the run holding a job (`<PROCESS_ID>/<run id>`): the runner that claimed it, or
 * a call that finishes the work itself and enqueued the job only as its recovery (held until it is
 * due). A process restarted after an unclean stop gives back what its previous run held
 * (releaseHeldBy), so that work resumes at once; rows held by any other run are left alone.
 *
 * A job may carry a concurrency key and cap (`push:<destination uuid>`, 2): it is not claimed while
 * `cap` jobs of its key are running under a live lease. On PostgreSQL the claim of a keyed job
 * holds a transaction-scoped advisory lock on the key while it counts and takes, so two runners
 * cannot both take the last free place; SQLite's single writer makes the guarded UPDATE enough.
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
    job: {
      kind: string;
      payload: unknown;
      runAt: number;
      dedupeKey?: string | undefined;
      limit?: { key: string; cap: number } | undefined;
      /** The run whose call is doing this job's work itself meanwhile (the job is its recovery). */
      heldBy?: string | undefined;
    },
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
        locked_by: job.heldBy ?? null,
        last_error: null,
        dedupe_key: job.dedupeKey ?? null,
        concurrency_key: job.limit?.key ?? null,
        concurrency_cap: job.limit?.cap ?? null,
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

  /** Claims the next due job of the given kinds for leaseMs, held by `owner` (the runner's run), or answers undefined. */
  async claim(
    kinds: string[],
    now: number,
    leaseMs: number,
    owner: string | null = null,
  ): Promise<JobRow | undefined> {
    if (!kinds.length) return undefined;
    // A lost race (another runner took the candidate) simply tries the next candidate.
    for (let attempt = 0; attempt < 5; attempt++) {
      const claimed =
        this.dialect === 'postgres'
          ? await this.db.transaction().execute(async (trx) => {
              const candidate = await this.due(trx, kinds, now).forUpdate().skipLocked().executeTakeFirst();
              if (!candidate) return null;
              if (candidate.concurrency_key !== null)
                await sql`select pg_advisory_xact_lock(hashtext(${candidate.concurrency_key}))`.execute(trx);
              return this.take(trx, candidate.id, now, leaseMs, owner);
            })
          : await (async () => {
              const candidate = await this.due(this.db, kinds, now).executeTakeFirst();
              return candidate ? this.take(this.db, candidate.id, now, leaseMs, owner) : null;
            })();
      if (claimed === null) return undefined;
      if (claimed) return claimed;
    }
    return undefined;
  }

  private due(db: Kysely<Database>, kinds: string[], now: number) {
    return db
      .selectFrom('jobs')
      .select(['id', 'concurrency_key'])
      .where('kind', 'in', kinds)
      .where((eb) => claimable(eb, now))
      .orderBy('run_at')
      .orderBy('id')
      .limit(1);
  }

  /** The guarded claim of one row: undefined when another runner got there first. */
  private async take(db: Kysely<Database>, id: number, now: number, leaseMs: number, owner: string | null) {
    const result = await db
      .updateTable('jobs')
      .set((eb) => ({
        status: 'running',
        attempts: eb('attempts', '+', 1),
        locked_until: now + leaseMs,
        locked_by: owner,
        updated: now,
      }))
      .where('id', '=', id)
      .where((eb) => claimable(eb, now))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }

  /**
   * Extends the lease of a claim still held (heartbeat while the job runs); false when the claim
   * was lost: the lease ran out and another runner took the job, or it was finished meanwhile.
   */
  async renew(job: JobRow, now: number, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ locked_until: now + leaseMs, updated: now })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks the claim done; false when the claim was lost (lease ran out and another runner took it). */
  async complete(job: JobRow, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'done', locked_until: null, locked_by: null, last_error: null, updated: now })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Records a failed attempt: back to the queue at retryAt, or failed for good when retryAt is null. */
  async fail(job: JobRow, error: string, retryAt: number | null, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        status: retryAt === null ? 'failed' : 'queued',
        run_at: retryAt ?? job.run_at,
        locked_until: null,
        locked_by: null,
        last_error: error.slice(0, 2000),
        updated: now,
      })
      .where('id', '=', job.id)
      .where('status', '=', 'running')
      .where('attempts', '=', job.attempts)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Per kind: jobs due and waiting, when the oldest of them came due, and jobs running (metrics). */
  async queueStats(
    now: number,
  ): Promise<{ kind: string; due: number; oldestDue: number | null; running: number }[]> {
    const due = await this.db
      .selectFrom('jobs')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n'), eb.fn.min('run_at').as('oldest')])
      .where('status', '=', 'queued')
      .where('run_at', '<=', now)
      .groupBy('kind')
      .execute();
    const running = await this.db
      .selectFrom('jobs')
      .select((eb) => ['kind', eb.fn.countAll<number>().as('n')])
      .where('status', '=', 'running')
      .groupBy('kind')
      .execute();
    const stats = new Map<string, { kind: string; due: number; oldestDue: number | null; running: number }>();
    for (const row of due)
      stats.set(row.kind, { kind: row.kind, due: Number(row.n), oldestDue: Number(row.oldest), running: 0 });
    for (const row of running) {
      const stat = stats.get(row.kind) ?? { kind: row.kind, due: 0, oldestDue: null, running: 0 };
      stat.running = Number(row.n);
      stats.set(row.kind, stat);
    }
    return [...stats.values()];
  }

  /**
   * Gives back, due now, every unfinished job a run held (a running claim, or a recovery job held
   * by its call): called at start-up with this process's previous run, which stopped uncleanly, so
   * its work resumes at once instead of after its lease or due time. Only that run's rows: another
   * process's are never touched, however long ago they were claimed. Answers how many.
   */
  async releaseHeldBy(owner: string, now: number): Promise<number> {
    const result = await this.db
      .updateTable('jobs')
      .set({
        status: 'queued',
        run_at: now,
        locked_until: null,
        locked_by: null,
        last_error: 'its process stopped before finishing it',
        updated: now,
      })
      .where('locked_by', '=', owner)
      .where('status', 'in', ['queued', 'running'])
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  /** Cancels a job that has not started; false once it runs or ran. */
  async cancel(id: number, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable('jobs')
      .set({ status: 'cancelled', locked_by: null, updated: now })
      .where('id', '=', id)
      .where('status', '=', 'queued')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}

/**
 * Due (queued and its time came, or running under a lease that ran out) and, for a keyed job,
 * fewer than its cap of the same key running under a live lease.
 */
function claimable(eb: ExpressionBuilder<Database, 'jobs'>, now: number) {
  return eb.and([
    eb.or([
      eb.and([eb('status', '=', 'queued'), eb('run_at', '<=', now)]),
      eb.and([eb('status', '=', 'running'), eb('locked_until', '<', now)]),
    ]),
    eb.or([
      eb('concurrency_key', 'is', null),
      eb(
        eb
          .selectFrom('jobs as held')
          .select((h) => h.fn.countAll<number>().as('n'))
          .whereRef('held.concurrency_key', '=', 'jobs.concurrency_key')
          .where('held.status', '=', 'running')
          .where('held.locked_until', '>=', now),
        '<',
        eb.ref('jobs.concurrency_cap'),
      ),
    ]),
  ]);
}
