import type { Kysely, Migration } from 'kysely';

/**
 * Two-factor sign-in codes (TOTP, RFC 6238): one secret per user, enabled once a first code proved
 * the user's authenticator holds it; `last_step` is the newest 30-second step a code was accepted
 * for, so a code seen once is refused a second time. Recovery codes are kept as their SHA-256 only.
 */
export const twoFactor: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('user_totp')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.uuid').onDelete('cascade'))
      .addColumn('secret', 'text', (c) => c.notNull())
      .addColumn('enabled', 'bigint')
      .addColumn('last_step', 'bigint')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('user_recovery_codes')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used', 'bigint')
      .addPrimaryKeyConstraint('user_recovery_codes_pk', ['user_id', 'code_hash'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_recovery_codes').execute();
    await db.schema.dropTable('user_totp').execute();
  },
};
