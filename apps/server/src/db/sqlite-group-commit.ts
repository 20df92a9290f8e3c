import type { Kysely } from 'kysely';
import type { SqliteDirect } from './dialect.js';
import { inSqliteTransaction } from './index-durability.js';
import type { Database } from './schema.js';

/** A row's work waiting for the next shared commit, and who waits for its answer. */
interface Waiting {
  synced: boolean;
  work: (connection: Kysely<Database>) => Promise<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * The most rows one transaction takes: a batch holds the one connection for its statements (about
 * 0.1–0.2 ms a row), so a reader waits at most that many rows' work.
 */
export const GROUP_COMMIT_MAX_ROWS = 64;

/**
 * Group commit on SQLite's one connection (decision 0080). Rows handed in while the connection is
 * busy (another transaction, or the previous batch) wait, and the next batch takes them all: one
 * BEGIN, each row's work in a savepoint of its own, one COMMIT. Each caller's promise settles only
 * after that COMMIT, so an answer that waits for it waits for its row exactly as with a transaction
 * of its own; what is shared is the commit's fixed work and the log pages of the rows the batch
 * touches again and again (a study's and its series' counters, the same index pages).
 *
 * A row whose work fails is rolled back to its savepoint and only its caller gets the error; the
 * others commit. Should the COMMIT itself fail (the disk full, an I/O error) or SQLite end the
 * transaction on its own, every row not yet answered is run again in a transaction of its own, so
 * a failure only fails the rows that fail alone.
 *
 * The batch is committed `synced` (FULL) when any of its rows asks for it, else at NORMAL like
 * transactionWithoutSync (index-durability.ts).
 */
export class SqliteGroupCommit {
  private readonly queue: Waiting[] = [];
  private draining = false;
  /** Transactions committed by batches (not by the retries after a failed one): for tests and the bench. */
  commits = 0;
  /** Rows committed by batches. */
  rows = 0;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly direct: SqliteDirect,
    private readonly maxRows = GROUP_COMMIT_MAX_ROWS,
  ) {}

  /** Rows waiting for the next batch. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Runs `work` in the next shared transaction; settles once that transaction has committed. */
  commit<T>(synced: boolean, work: (connection: Kysely<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ synced, work, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // The batch is taken once the connection is ours, so every row that arrived while it was
      // busy goes into it.
      while (this.queue.length > 0)
        await this.db.connection().execute((connection) => this.commitBatch(connection));
    } catch (error) {
      // No connection to be had (the database closing): nobody waits for ever.
      for (const row of this.queue.splice(0)) row.reject(error);
    } finally {
      this.draining = false;
    }
  }

  private async commitBatch(connection: Kysely<Database>): Promise<void> {
    const batch = this.queue.splice(0, this.maxRows);
    const synced = batch.some((row) => row.synced);
    const done: { row: Waiting; value: unknown }[] = [];
    let next = 0;
    try {
      this.direct.exec(synced ? 'begin' : 'pragma synchronous = NORMAL; begin');
      for (; next < batch.length; next++) {
        const row = batch[next]!;
        this.direct.exec('savepoint grouped_row');
        let value: unknown;
        try {
          value = await row.work(connection);
          this.direct.exec('release grouped_row');
        } catch (error) {
          // SQLite ends the whole transaction on some errors (SQLITE_FULL, I/O): then the batch as a whole failed.
          if (!this.direct.inTransaction) throw error;
          this.direct.exec('rollback to grouped_row; release grouped_row');
          row.reject(error);
          continue;
        }
        done.push({ row, value });
      }
      this.direct.exec(synced ? 'commit' : 'commit; pragma synchronous = FULL');
    } catch {
      // Whatever these two fail on, each row's own transaction below meets and answers it.
      try {
        if (this.direct.inTransaction) this.direct.exec('rollback');
      } catch {
        /* answered by the rows' own transactions */
      }
      try {
        if (!synced) this.direct.exec('pragma synchronous = FULL');
      } catch {
        /* answered by the rows' own transactions */
      }
      // Every row not yet answered, each on its own: the one at fault fails alone.
      const again = [...done.map(({ row }) => row), ...batch.slice(next)];
      for (const row of again) {
        try {
          row.resolve(await inSqliteTransaction(this.direct, row.synced, () => row.work(connection)));
        } catch (error) {
          row.reject(error);
        }
      }
      return;
    }
    this.commits += 1;
    this.rows += done.length;
    for (const { row, value } of done) row.resolve(value);
  }
}
