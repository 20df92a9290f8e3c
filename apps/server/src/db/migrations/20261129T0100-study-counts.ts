import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * A maintained count of studies, so the total of a broad search (no filter, a date range, known
 * modalities, the trash) is a sum over a few hundred rows instead of one index entry per study
 * (decision 0046). Studies are counted per namespace, trash or not, study status and modality mask:
 * - by month (`study_counts_by_month`), which answers a search without a date range;
 * - by study date (`study_counts_by_day`), which with the months wholly inside a range answers a
 *   date range exactly.
 * `month` is the first six characters of an eight-digit study date, and '' for any other study
 * date (empty, malformed): those are only ever counted through their day row, compared exactly as
 * the search compares `studies.study_date`.
 *
 * Triggers on studies keep both in the same transaction as the write, so no writer can miss them.
 * On PostgreSQL each count is split over four slots (by the study uuid's last character):
 * concurrent ingests creating studies of the same day, status and modality would otherwise wait
 * for each other's commit on one row. SQLite has one writer at a time, so it keeps one slot.
 * An update that changes none of the counted columns (every C-STORE's image and size counters)
 * fires no trigger.
 */
const COUNTED = ['namespace_id', 'study_date', 'study_status', 'modality_bits', 'deleted'] as const;

const DAY_KEY = 'namespace_id, deleted, study_date, study_status, modality_bits, slot';
const MONTH_KEY = 'namespace_id, deleted, month, study_status, modality_bits, slot';

export const studyCounts: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = isPostgres(db);
    const bigint = pg ? 'bigint' : 'integer';
    const withoutRowid = pg ? '' : ' without rowid';
    await sql
      .raw(
        `create table study_counts_by_day (
          namespace_id text not null, deleted integer not null, study_date text not null,
          study_status text not null, modality_bits bigint not null, slot integer not null,
          month text not null, n ${bigint} not null,
          primary key (${DAY_KEY}))${withoutRowid}`,
      )
      .execute(db);
    await sql
      .raw(
        `create table study_counts_by_month (
          namespace_id text not null, deleted integer not null, month text not null,
          study_status text not null, modality_bits bigint not null, slot integer not null,
          n ${bigint} not null,
          primary key (${MONTH_KEY}))${withoutRowid}`,
      )
      .execute(db);
    if (pg) await postgresTriggers(db);
    else await sqliteTriggers(db);
    // The studies already there, counted once (slot 0: how they are split does not matter).
    const month = monthOf(pg, 'study_date');
    const trashed = pg ? '(deleted is not null)::int' : '(deleted is not null)';
    await sql
      .raw(
        `insert into study_counts_by_day (${DAY_KEY}, month, n)
         select namespace_id, ${trashed}, study_date, study_status, modality_bits, 0, ${month}, count(*)
         from studies group by namespace_id, ${trashed}, study_date, study_status, modality_bits`,
      )
      .execute(db);
    await sql
      .raw(
        `insert into study_counts_by_month (${MONTH_KEY}, n)
         select namespace_id, deleted, month, study_status, modality_bits, slot, sum(n)
         from study_counts_by_day group by ${MONTH_KEY}`,
      )
      .execute(db);
  },
};

/** The month of an eight-digit study date, else ''. */
function monthOf(pg: boolean, column: string): string {
  const eightDigits = pg ? `${column} ~ '^[0-9]{8}$'` : `${column} glob '${'[0-9]'.repeat(8)}'`;
  return `case when ${eightDigits} then substr(${column}, 1, 6) else '' end`;
}

/** Adds `delta` to the day and month rows of the study `row` (NEW or OLD) inside a trigger. */
function addStatements(pg: boolean, row: 'new' | 'old', delta: 1 | -1): string {
  const trashed = pg ? `(${row}.deleted is not null)::int` : `(${row}.deleted is not null)`;
  // The uuid's last character is random hex; four slots keep concurrent creations apart.
  const slot = pg ? `ascii(right(${row}.uuid, 1)) % 4` : '0';
  const month = monthOf(pg, `${row}.study_date`);
  const common = `${row}.namespace_id, ${trashed}`;
  const tail = `${row}.study_status, ${row}.modality_bits, ${slot}`;
  return `
    insert into study_counts_by_day (${DAY_KEY}, month, n)
    values (${common}, ${row}.study_date, ${tail}, ${month}, ${delta})
    on conflict (${DAY_KEY}) do update set n = study_counts_by_day.n + excluded.n;
    insert into study_counts_by_month (${MONTH_KEY}, n)
    values (${common}, ${month}, ${tail}, ${delta})
    on conflict (${MONTH_KEY}) do update set n = study_counts_by_month.n + excluded.n;`;
}

/** Does the update move the study between counts? */
function changed(pg: boolean): string {
  return COUNTED.map((c) =>
    c === 'deleted'
      ? '(old.deleted is null) <> (new.deleted is null)'
      : `old.${c} ${pg ? 'is distinct from' : 'is not'} new.${c}`,
  ).join(' or ');
}

async function sqliteTriggers(db: Kysely<unknown>) {
  await sql
    .raw(
      `create trigger study_counts_insert after insert on studies begin ${addStatements(false, 'new', 1)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_counts_delete after delete on studies begin ${addStatements(false, 'old', -1)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_counts_update after update of ${COUNTED.join(', ')} on studies
       when ${changed(false)}
       begin ${addStatements(false, 'old', -1)} ${addStatements(false, 'new', 1)} end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  await sql
    .raw(
      `create function study_counts_apply() returns trigger language plpgsql as $$
       begin
         if tg_op in ('UPDATE', 'DELETE') then ${addStatements(true, 'old', -1)} end if;
         if tg_op in ('UPDATE', 'INSERT') then ${addStatements(true, 'new', 1)} end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_counts_insert_delete after insert or delete on studies
       for each row execute function study_counts_apply()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_counts_update after update of ${COUNTED.join(', ')} on studies
       for each row when (${changed(true)}) execute function study_counts_apply()`,
    )
    .execute(db);
}
