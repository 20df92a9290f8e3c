import { CompiledQuery, sql } from 'kysely';
import type { Kysely, Transaction } from 'kysely';
import type { Db, DialectName, SqliteDirect } from './dialect.js';
import type { Database } from './schema.js';

// Compiled once: these run around every received instance's index transaction.
const SQLITE_SYNC_NORMAL = CompiledQuery.raw('pragma synchronous = NORMAL');
const SQLITE_SYNC_FULL = CompiledQuery.raw('pragma synchronous = FULL');

/**
 * Runs `work` in a transaction whose commit does not wait for the database log to reach the disk
 * (on SQLite; see below for PostgreSQL).
 * Only for index rows that can be rebuilt from a file that is already durable (C-STORE ingest,
 * docs/architecture.md "Durability of received instances"): such a commit is atomic and survives a
 * crash of our process, and becomes durable with the next synced commit of any other write (the
 * log is one file, or one stream, synced as a whole); a power cut before that loses it, and the
 * recovery scan at the next start indexes the file again.
 *
 * SQLite: the connection runs `synchronous = FULL`; this transaction runs at NORMAL, which in WAL
 * mode skips the WAL sync at commit. The level cannot change inside a transaction, so the single
 * connection is held from before BEGIN until it is back at FULL: no other write can commit at the
 * weaker level. PostgreSQL: an ordinary commit at the server's synchronous_commit (on by default),
 * so nothing there needs the recovery scan; concurrent commits share one log flush.
 */
export function transactionWithoutSync<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  // Several processes share one PostgreSQL database: a lost commit there could be any process's,
  // and no run marker of one process can say which. So the acknowledgement waits for the log
  // flush (synchronous_commit = on, the server's setting; docs/decisions/0029-scale-out.md).
  if (dialect === 'postgres') return db.transaction().execute(work);
  return db.connection().execute(async (connection) => {
    await connection.executeQuery(SQLITE_SYNC_NORMAL);
    try {
      return await connection.transaction().execute(work);
    } finally {
      await connection.executeQuery(SQLITE_SYNC_FULL);
    }
  });
}

/**
 * A transaction on SQLite's connection itself (SqliteDirect), at FULL or, without `synced`, at
 * NORMAL as transactionWithoutSync: BEGIN with its pragma is one call and COMMIT with its pragma
 * another, where Kysely spends four statements and a transaction object. `work` gets the held
 * connection (for statements built with Kysely); compiled statements may go to `direct` meanwhile.
 */
export function sqliteTransaction<T>(
  db: Kysely<Database>,
  direct: SqliteDirect,
  synced: boolean,
  work: (connection: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.connection().execute((connection) => inSqliteTransaction(direct, synced, () => work(connection)));
}

/**
 * `run` in a transaction begun and committed on `direct`, which the caller holds (Kysely's
 * connection taken): sqliteTransaction's body, and the group commit's retry of a row on its own.
 */
export async function inSqliteTransaction<T>(
  direct: SqliteDirect,
  synced: boolean,
  run: () => Promise<T>,
): Promise<T> {
  direct.exec(synced ? 'begin' : 'pragma synchronous = NORMAL; begin');
  try {
    const result = await run();
    direct.exec(synced ? 'commit' : 'commit; pragma synchronous = FULL');
    return result;
  } catch (error) {
    if (direct.inTransaction) direct.exec('rollback');
    if (!synced) direct.exec('pragma synchronous = FULL');
    throw error;
  }
}

/**
 * Makes every commit so far durable, synced or not: SQLite checkpoints the WAL (syncing it first,
 * then the database file); PostgreSQL commits a transaction with an id at the default synchronous
 * level, whose log flush covers every earlier commit record. Called before a clean stop is recorded.
 */
export async function makeIndexDurable(db: Db): Promise<void> {
  if (db.dialect === 'postgres') {
    await db.kysely.transaction().execute(async (trx) => {
      await sql`set local synchronous_commit = on`.execute(trx);
      await sql`select txid_current()`.execute(trx);
    });
    return;
  }
  await sql`pragma wal_checkpoint(FULL)`.execute(db.kysely);
}
