import type { Kysely, Migration } from 'kysely';

/** An account's own wording of the product's labels: one text per (account, language, English original). */
export const labelOverrides: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('label_overrides')
      .addColumn('account_id', 'text', (c) => c.notNull())
      .addColumn('language', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('updated_by', 'text', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('label_overrides_pk', ['account_id', 'language', 'key'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('label_overrides').execute();
  },
};
