import type { Kysely, Migration } from 'kysely';

/**
 * Custom field definitions of an account (customfield/list, the Exchange tab). A study's values
 * stay in `study_customfields`, keyed by the definition's uuid; `options` is a JSON array of
 * `{value, field_label}` for radio and select fields.
 */
export const customFields: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('custom_fields')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('object', 'text', (c) => c.notNull().defaultTo('study'))
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('required', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('options', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('display_order', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addUniqueConstraint('custom_fields_name', ['account_id', 'object', 'name'])
      .execute();
    await db.schema
      .createIndex('custom_fields_account_order')
      .on('custom_fields')
      .columns(['account_id', 'object', 'display_order'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('custom_fields').execute();
  },
};
