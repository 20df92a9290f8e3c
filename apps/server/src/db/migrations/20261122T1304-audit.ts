import type { Kysely, Migration } from 'kysely';
import { withSerialId } from './helpers.js';

/** Who did what to which object, when, with which outcome. Append-only. */
export const audit: Migration = {
  async up(db: Kysely<unknown>) {
    await withSerialId(db, db.schema.createTable('audit_events'))
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'text')
      .addColumn('account_id', 'text')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('object_type', 'text', (c) => c.notNull())
      .addColumn('object_id', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull())
      .addColumn('detail', 'text')
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('audit_object').on('audit_events').columns(['object_id', 'at']).execute();
    await db.schema.createIndex('audit_user').on('audit_events').columns(['user_id', 'at']).execute();
  },
};
