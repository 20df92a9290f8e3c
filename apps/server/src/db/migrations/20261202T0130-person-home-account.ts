import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';

/**
 * The account a person's identity (name, password, enabled) belongs to: the one that created them
 * (decision 0052). Existing people get the oldest account they belong to (the demo world's users
 * belong to one account each); someone in no account has none and answers only to themselves.
 */
export const personHomeAccount: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('users')
      .addColumn('home_account_id', 'text', (c) => c.references('accounts.uuid'))
      .execute();
    await sql`
      update users set home_account_id = (
        select am.account_id from account_members am join accounts a on a.uuid = am.account_id
         where am.user_id = users.uuid
         order by a.created, a.uuid
         limit 1)`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('users').dropColumn('home_account_id').execute();
  },
};
