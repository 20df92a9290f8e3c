import type { Kysely, Migration } from 'kysely';

/**
 * Which run of which process holds a job (`<PROCESS_ID>/<run id>`): the runner that claimed it, or
 * the call that is finishing the work itself while its recovery job waits (study/process). A process
 * restarted after an unclean stop gives back at once the jobs its own previous run held, instead of
 * leaving them until their lease or due time runs out (decision 0025); another process's are never
 * touched. Null for a job nobody holds.
 */
export const jobLeaseHolder: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').addColumn('locked_by', 'text').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('jobs').dropColumn('locked_by').execute();
  },
};
