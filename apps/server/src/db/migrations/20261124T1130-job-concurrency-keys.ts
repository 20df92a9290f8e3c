import type { Kysely, Migration } from 'kysely';

/**
 * A job's concurrency key and cap (say `push:<destination uuid>`, 2): a claim skips a job while
 * `cap` running jobs of its key hold a live lease, in whichever process they run.
 */
export const jobConcurrencyKeys: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('concurrency_key', 'text').execute();
    await db.schema.alterTable('jobs').addColumn('concurrency_cap', 'integer').execute();
    await db.schema
      .createIndex('jobs_concurrency_key')
      .on('jobs')
      .columns(['concurrency_key', 'status'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('jobs_concurrency_key').execute();
    await db.schema.alterTable('jobs').dropColumn('concurrency_cap').execute();
    await db.schema.alterTable('jobs').dropColumn('concurrency_key').execute();
  },
};
