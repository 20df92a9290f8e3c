import type { Kysely, Migration } from 'kysely';
import { withSerialId } from './helpers.js';

/** Server-side sessions, login failure log for rate limits, one-time password reset tokens. */
export const sessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sessions')
      .addColumn('sid_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('last_seen', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await withSerialId(db, db.schema.createTable('auth_failures'))
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('auth_failures_key_at').on('auth_failures').columns(['key', 'at']).execute();
    await db.schema
      .createTable('password_resets')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('used', 'bigint')
      .execute();
  },
};
