import { sql } from 'kysely';
import type { Db } from './dialect.js';

/**
 * Runs the start-up work that must happen once per database (migrations, the demo seed of a new
 * database) while holding a PostgreSQL session advisory lock, so processes starting at once take
 * turns: the first migrates and seeds, the others wait and then find both done. Two processes
 * racing without it could both seed a new database, or collide creating the migration table.
 * SQLite: one file with one writer, used by one process; the work runs as it is.
 */
export async function withStartupLock<T>(db: Db, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return work();
  // A session lock lives on one connection: hold that connection until the work is done.
  return db.kysely.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(hashtext('imaging-inbox:startup'))`.execute(connection);
    try {
      return await work();
    } finally {
      await sql`select pg_advisory_unlock(hashtext('imaging-inbox:startup'))`.execute(connection);
    }
  });
}
