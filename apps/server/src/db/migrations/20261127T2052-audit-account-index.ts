import type { Kysely, Migration } from 'kysely';

/** audit/log reads an account's events newest first. */
export const auditAccountIndex: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('audit_account').on('audit_events').columns(['account_id', 'at']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('audit_account').execute();
  },
};
