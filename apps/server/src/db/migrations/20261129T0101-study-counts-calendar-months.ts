import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * The study counts of migration 20261129T0100 by calendar month: a month row now holds the studies
 * dated m01 to m31 (not any eight digits), so a range from the first to the last of a month, as the
 * inbox's date filters give, is one month row instead of a month of day rows (decision 0046).
 * The triggers are made anew with that month and both tables are counted again from the studies.
 */
const COUNTED = ['namespace_id', 'study_date', 'study_status', 'modality_bits', 'deleted'] as const;

const DAY_KEY = 'namespace_id, deleted, study_date, study_status, modality_bits, slot';
const MONTH_KEY = 'namespace_id, deleted, month, study_status, modality_bits, slot';

export const studyCountsCalendarMonths: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = isPostgres(db);
    if (pg) {
      await sql`drop trigger study_counts_insert_delete on studies`.execute(db);
      await sql`drop trigger study_counts_update on studies`.execute(db);
      await sql`drop function study_counts_apply()`.execute(db);
    } else {
      for (const name of ['study_counts_insert', 'study_counts_delete', 'study_counts_update']) {
        await sql`drop trigger ${sql.id(name)}`.execute(db);
      }
    }
    await sql`delete from study_counts_by_day`.execute(db);
    await sql`delete from study_counts_by_month`.execute(db);
    if (pg) await postgresTriggers(db);
    else await sqliteTriggers(db);
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

/**
 * The month of a calendar study date (six digits, then a day 01 to 31), else ''. Every such date of
 * month m lies between m01 and m31, whatever the collation, which is what lets a range take the
 * months wholly inside it from their month rows.
 */
function monthOf(pg: boolean, column: string): string {
  const calendar = pg
    ? `${column} ~ '^[0-9]{6}(0[1-9]|[12][0-9]|3[01])$'`
    : `length(${column}) = 8 and ${column} not glob '*[^0-9]*' and substr(${column}, 7, 2) between '01' and '31'`;
  return `case when ${calendar} then substr(${column}, 1, 6) else '' end`;
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
