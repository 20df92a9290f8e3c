import type { Kysely, Migration } from 'kysely';

/**
 * Roles: named permission sets of an account (role/*). A name is unique within its account; the
 * permissions are a JSON array of the contract's permission names.
 */
export const roles: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('roles')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('roles_account_name', ['account_id', 'name'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('roles').execute();
  },
};
