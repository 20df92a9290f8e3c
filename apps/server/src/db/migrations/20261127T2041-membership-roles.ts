import type { Kysely, Migration } from 'kysely';

/**
 * The role a membership holds, on the account and in a group. A membership with a role grants the
 * role's permissions as they are at each call; one without keeps the permissions written on it.
 */
export const membershipRoles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('account_members')
      .addColumn('role_id', 'text', (c) => c.references('roles.uuid'))
      .execute();
    await db.schema
      .alterTable('group_members')
      .addColumn('role_id', 'text', (c) => c.references('roles.uuid'))
      .execute();
    await db.schema.createIndex('account_members_role').on('account_members').column('role_id').execute();
    await db.schema.createIndex('group_members_role').on('group_members').column('role_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('group_members_role').execute();
    await db.schema.dropIndex('account_members_role').execute();
    await db.schema.alterTable('group_members').dropColumn('role_id').execute();
    await db.schema.alterTable('account_members').dropColumn('role_id').execute();
  },
};
