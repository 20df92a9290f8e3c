import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database } from './schema.js';
import { FALLBACK_AUTOCHECKPOINT_PAGES, WalCheckpointer } from './wal-checkpointer.js';

export type DialectName = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: DialectName;
  close(): Promise<void>;
}

// PostgreSQL answers int8 (bigint, count(*)) as strings; every such value here is an epoch
// millisecond time, a byte size or a count, all far below 2^53, so numbers are safe.
pg.types.setTypeParser(20, (value) => Number(value));

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
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
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
  const kysely = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
  });
  const close = async () => {
    await checkpointer?.stop();
    await kysely.destroy();
  };
  return { kysely, dialect: 'sqlite', close };
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query anew; better-sqlite3 statements are reusable, and the same few
 * hundred SQL texts recur, so keep them. Safe because Kysely runs one statement at a time on
 * its single SQLite connection.
 */
function withStatementCache(sqlite: SQLite.Database): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>();
  const prepare = sqlite.prepare.bind(sqlite);
  return new Proxy(sqlite, {
    get(target, property, receiver) {
      if (property !== 'prepare') return Reflect.get(target, property, receiver) as unknown;
      return (source: string) => {
        let statement = cache.get(source);
        if (!statement) {
          statement = prepare(source);
          if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
          cache.set(source, statement);
        }
        return statement;
      };
    },
  });
}
