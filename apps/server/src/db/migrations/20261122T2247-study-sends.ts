import type { Kysely, Migration } from 'kysely';

/**
 * Sends of a study outside its group: to a connection or a share code (a copy into the target
 * namespace, possibly of another account) or by e-mail (a link). Each send runs as a durable job
 * (job_id), now or after the delay; until it runs it can be cancelled.
 * E-mail sends keep only hashes: of the link token, of the one-time code mailed to verify the
 * address, and of the short-lived download grants (send_grants) handed out once verified.
 */
export const studySends: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('study_sends')
      .addColumn('uuid', 'text', (c) => c.primaryKey())
      .addColumn('study_uuid', 'text', (c) => c.notNull().references('studies.uuid').onDelete('cascade'))
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid'))
      .addColumn('method', 'text', (c) => c.notNull())
      .addColumn('target_namespace_id', 'text', (c) => c.references('namespaces.id'))
      .addColumn('connection_id', 'text')
      .addColumn('email', 'text')
      .addColumn('message', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('job_id', 'bigint')
      .addColumn('copy_uuid', 'text')
      .addColumn('token_hash', 'text', (c) => c.unique())
      .addColumn('expires', 'bigint')
      .addColumn('code_hash', 'text')
      .addColumn('code_expires', 'bigint')
      .addColumn('created_by', 'text', (c) => c.notNull().references('users.uuid'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('study_sends_study')
      .on('study_sends')
      .columns(['study_uuid', 'created'])
      .execute();
    await db.schema
      .createTable('send_grants')
      .addColumn('grant_hash', 'text', (c) => c.primaryKey())
      .addColumn('send_uuid', 'text', (c) => c.notNull().references('study_sends.uuid').onDelete('cascade'))
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addColumn('ip', 'text')
      .execute();
    await db.schema.createIndex('send_grants_send').on('send_grants').column('send_uuid').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('send_grants').execute();
    await db.schema.dropTable('study_sends').execute();
  },
};
