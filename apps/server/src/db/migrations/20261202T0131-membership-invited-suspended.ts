import type { Kysely, Migration } from 'kysely';

/**
 * A membership's own state, apart from the person's identity (decision 0052): `invited` while the
 * person has not accepted an invitation from an account that is not their home (it grants nothing,
 * and the inviter sees only the address and the name they typed, `invited_name`), `suspended` when
 * that account turned it off (it grants nothing in that account alone).
 */
export const membershipInvitedSuspended: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('account_members')
      .addColumn('invited', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .alterTable('account_members')
      .addColumn('suspended', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable('account_members').addColumn('invited_name', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('account_members').dropColumn('invited_name').execute();
    await db.schema.alterTable('account_members').dropColumn('suspended').execute();
    await db.schema.alterTable('account_members').dropColumn('invited').execute();
  },
};
