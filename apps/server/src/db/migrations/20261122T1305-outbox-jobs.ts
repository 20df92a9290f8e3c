import type { Kysely, Migration } from 'kysely';
import { withSerialId } from './helpers.js';

/** Mail outbox (read by the dev page when no SMTP server is set) and the durable job queue. */
export const outboxAndJobs: Migration = {
  async up(db: Kysely<unknown>) {
    await withSerialId(db, db.schema.createTable('outbox'))
      .addColumn('to_address', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('sent', 'bigint')
      .execute();
    await withSerialId(db, db.schema.createTable('jobs'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('locked_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('dedupe_key', 'text', (c) => c.unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  },
};
