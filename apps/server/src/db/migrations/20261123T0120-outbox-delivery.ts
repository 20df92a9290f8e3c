import { sql } from 'kysely';
import type { Kysely, Migration } from 'kysely';

/**
 * The outbox becomes the queue mail is delivered from: each row has a state (queued → sent or
 * failed; local when no SMTP server is configured and the row itself is the mail), the attempts
 * made and the last SMTP error. Rows written before were either sent or local.
 */
export const outboxDelivery: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('outbox')
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('local'))
      .execute();
    await db.schema.alterTable('outbox').addColumn('kind', 'text').execute();
    await db.schema
      .alterTable('outbox')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('outbox').addColumn('last_error', 'text').execute();
    await sql`update outbox set state = 'sent', attempts = 1 where sent is not null`.execute(db);
  },
};
