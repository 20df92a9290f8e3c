import type { Kysely, Migration } from 'kysely';

/**
 * Processing a nomination (study/process) in steps that survive a crash: `process` holds what the
 * gatekeeper asked (attributes to write, destination, priority, order) once the call is accepted,
 * so the steps can be finished by the recovery job if the server stops half-way; `processed_at`
 * is set when the push is queued, in the same transaction.
 */
export const nominationProcess: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('nominations').addColumn('process', 'text').execute();
    await db.schema.alterTable('nominations').addColumn('processed_by', 'text').execute();
    await db.schema.alterTable('nominations').addColumn('processed_at', 'bigint').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('nominations').dropColumn('processed_at').execute();
    await db.schema.alterTable('nominations').dropColumn('processed_by').execute();
    await db.schema.alterTable('nominations').dropColumn('process').execute();
  },
};
