import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres, withSerialId } from './helpers.js';

/**
 * The queue of audit events waiting for the security team's collector (decision 0068). A trigger on
 * audit_events writes one `atna_outbox` row in the transaction of every audit insert, whichever code
 * path wrote it, while `atna_switch` holds its one row (the ATNA module puts it there when a
 * collector is configured): so a rolled-back change queues nothing and a committed event is always
 * queued. The study an event is about (a study's, or a share's of it) is copied at that moment (its UID, patient and accession), so
 * a message sent after the study was purged still names them.
 */
export const atnaOutbox: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('atna_switch')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('since', 'bigint', (c) => c.notNull())
      .execute();
    await withSerialId(db, db.schema.createTable('atna_outbox'))
      .addColumn('audit_event_id', 'bigint', (c) => c.notNull())
      .addColumn('study_uid', 'text')
      .addColumn('patient_id', 'text')
      .addColumn('patient_name', 'text')
      .addColumn('accession_number', 'text')
      .execute();
    const copy = `insert into atna_outbox (audit_event_id, study_uid, patient_id, patient_name, accession_number)
      select new.id, s.study_uid, s.patientid, s.patient_name, s.accession_number
      from (select 1 as one) o
      left join studies s on new.object_type in ('study', 'share') and s.uuid = new.object_id`;
    if (isPostgres(db)) {
      await sql
        .raw(
          `create function atna_outbox_queue() returns trigger language plpgsql as $$
           begin
             if exists (select 1 from atna_switch) then ${copy}; end if;
             return null;
           end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger atna_outbox_queue after insert on audit_events
           for each row execute function atna_outbox_queue()`,
        )
        .execute(db);
    } else {
      await sql
        .raw(
          `create trigger atna_outbox_queue after insert on audit_events
           when exists (select 1 from atna_switch)
           begin ${copy}; end`,
        )
        .execute(db);
    }
  },
};
