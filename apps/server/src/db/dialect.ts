import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { CompiledQuery, QueryResult, SqliteDatabase, SqliteStatement } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
  /** SQLite only: its connection without Kysely in between (see SqliteDirect). */
  sqlite?: SqliteDirect;
}

/**
 * SQLite's one connection, reached without Kysely's executor: for the received instance's index
 * transaction, where Kysely's work around each statement (connection hand-out, transaction object,
 * result transforms) cost more CPU than SQLite's own (docs/performance-log.md, C-STORE, issue 34).
 * Only while Kysely's connection is held (`kysely.connection().execute`), so that no other
 * statement runs in between.
 */
export interface SqliteDirect {
  /** Runs statements that answer no rows (BEGIN, COMMIT, pragmas), several separated by `;`. */
  exec(source: string): void;
  /** Runs a compiled query on the cached statement of its SQL, answering as Kysely's driver does. */
  executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
  /** Whether a transaction is open (a failed COMMIT may leave it so). */
  readonly inTransaction: boolean;
}

// PostgreSQL answers int8 (bigint, count(*)) as strings; every such value here is an epoch
// millisecond time, a byte size or a count, all far below 2^53, so numbers are safe.
pg.types.setTypeParser(20, (value) => Number(value));

/** How long a pooled PostgreSQL connection may stay idle before it is closed. */
const POOL_IDLE_MS = 5 * 60_000;

/**
 * Opens the SQLite file in dataDir, or PostgreSQL when a URL is given. The server asks for
 * `checkpoints` in the background (SQLite: see WalCheckpointer); tools and tests opening the same file
 * beside it do not.
 */
export function openDatabase(
  options: { dataDir: string; databaseUrl?: string | undefined },
  background: { checkpoints?: boolean; log?: (line: string) => void } = {},
): Db {
  if (options.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      // node-postgres closes a connection idle for 10 s by default, and the next burst opens it
      // again: a new backend (a fork) whose first statements plan on cold catalog caches. The
      // more processes share the work, the more often each one's connections sit idle that
      // long, so that cost grew with the process count (bench:cluster, issue 34: 20 connections
      // reopened in a three-process study/list phase, none with one process). Five minutes keeps
      // them through a working day's lulls; at most `max` per process stay open.
      idleTimeoutMillis: POOL_IDLE_MS,
      // An idle connection does not keep node running: a tool that forgets to close the database
      // still exits, as it did when idle connections closed after 10 s.
      allowExitOnIdle: true,
    });
    const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { kysely, dialect: 'postgres', close: () => kysely.destroy() };
  }
  fs.mkdirSync(options.dataDir, { recursive: true });
  const file = path.join(options.dataDir, 'imaging-inbox.sqlite');
  const sqlite = new SQLite(file);
  // WAL lets readers run while one writer commits. FULL syncs the WAL at every commit, so a write
  // answered as done survives a power cut. The one exception, C-STORE's index rows (rebuildable
  // from their durable files), commits through transactionWithoutSync (index-durability.ts).
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('cache_size = -65536');
  // Search keys are stored upper-cased; a case-sensitive LIKE lets a prefix pattern use the index.
  sqlite.pragma('case_sensitive_like = ON');
  const checkpointer = background.checkpoints ? new WalCheckpointer(file, background.log) : undefined;
  if (checkpointer) sqlite.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  const statements = withStatementCache(sqlite);
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
  const close = async () => {
    await checkpointer?.stop();
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', close, sqlite: directOf(sqlite, statements) };
}

/** SqliteDirect on the connection and the statement cache Kysely uses too. */
function directOf(sqlite: SQLite.Database, statements: SqliteDatabase): SqliteDirect {
  return {
    exec: (source) => void sqlite.exec(source),
    executeQuery<R>({ sql, parameters }: CompiledQuery<R>): Promise<QueryResult<R>> {
      const statement = statements.prepare(sql);
      if (statement.reader) return Promise.resolve({ rows: statement.all(parameters) as R[] });
      const { changes } = statement.run(parameters);
      return Promise.resolve({ numAffectedRows: BigInt(changes), rows: [] });
    },
    get inTransaction() {
      return sqlite.inTransaction;
    },
  };
}

const STATEMENT_CACHE_SIZE = 500;

/** A statement that changes the schema: the cached statements' result columns may change with it. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and the same few
 * hundred SQL texts recur, so keep them. Safe because Kysely runs one statement at a time on
 * its single SQLite connection.
 *
 * Rows are read as arrays and made into objects here (rowsOf): better-sqlite3 builds each row
 * object through V8's API as a dictionary of its columns, slow to make and to read, which for a
 * page of 50 studies cost a third of the page's time in SQLite (docs/performance-log.md).
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const cache = new Map<string, SqliteStatement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string): SqliteStatement {
      let statement = cache.get(source);
      if (!statement) {
        if (SCHEMA_CHANGE.test(source)) cache.clear();
        const prepared = sqlite.prepare(source);
        statement = prepared.reader ? rowsOf(prepared) : prepared;
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

/** A reading statement whose rows come as arrays and are made into plain objects of one shape. */
function rowsOf(statement: SQLite.Statement): SqliteStatement {
  let names = statement.columns().map((column) => column.name);
  // `"__proto__": value` in an object literal would set the prototype instead of a column.
  if (names.includes('__proto__')) return statement;
  statement.raw(true);
  let build = rowBuilder(names);
  // A statement re-prepared by SQLite after a schema change may answer other columns.
  const shaped = (rows: unknown[][]): unknown[] => {
    if (rows.length && rows[0]!.length !== names.length) {
      names = statement.columns().map((column) => column.name);
      build = rowBuilder(names);
    }
    return rows.map(build);
  };
  return {
    reader: true,
    all: (parameters) => shaped(statement.all(parameters) as unknown[][]),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield shaped([row])[0];
    },
  };
}

/**
 * An object literal of the statement's columns, in their order: V8 gives every row the same
 * shape. A name repeated keeps its first place and its last value, as better-sqlite3's rows do.
 */
function rowBuilder(names: string[]): (row: unknown[]) => unknown {
  const fields = names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- made from column names only, quoted by JSON.stringify
  return new Function('row', `return { ${fields} };`) as (row: unknown[]) => unknown;
}
