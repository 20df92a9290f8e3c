import type { Kysely, Migration } from 'kysely';

/** Accounts, their namespaces and groups, users and memberships. */
export const identity: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('accounts')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('namespace_id', 'text', (c) => c.notNull().unique())
      .addColumn('vanity', 'text')
      .addColumn('share_code', 'text', (c) => c.unique())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('namespaces')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('groups')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('namespace_id', 'text', (c) => c.notNull().unique().references('namespaces.id'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('created', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('groups_account').on('groups').column('account_id').execute();
    await db.schema
      .createTable('users')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('first_name', 'text', (c) => c.notNull())
      .addColumn('last_name', 'text', (c) => c.notNull())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('password_history', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('sysadmin', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('support', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('ACTIVE'))
      .addColumn('time_zone', 'text')
      .addColumn('ui_json', 'text')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('last_login', 'bigint')
      .execute();
    await db.schema
      .createTable('account_members')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addPrimaryKeyConstraint('account_members_pk', ['account_id', 'user_id'])
      .execute();
    await db.schema.createIndex('account_members_user').on('account_members').column('user_id').execute();
    await db.schema
      .createTable('group_members')
      .addColumn('group_id', 'text', (c) => c.notNull().references('groups.uuid'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('permissions', 'text', (c) => c.notNull().defaultTo('[]'))
      .addPrimaryKeyConstraint('group_members_pk', ['group_id', 'user_id'])
      .execute();
    await db.schema.createIndex('group_members_user').on('group_members').column('user_id').execute();
  },
};
