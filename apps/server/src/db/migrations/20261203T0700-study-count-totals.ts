import type { Kysely, Migration } from 'kysely';
import { sql } from 'kysely';
import { isPostgres } from './helpers.js';

/**
 * A third maintained count of studies, per namespace, trash or not, study status and modality mask
 * with no date at all (decision 0079). The total of a search without a date range (no filter, known
 * modalities, the trash) summed every month row of the searched namespaces: about 1,350 rows at
 * 100,000 studies, 0.3 ms of SQLite's time in each such study/list call. These rows answer it in
 * a few dozen.
 *
 * Kept by triggers of their own beside the day and month triggers (migration 20261129T0101), in
 * the same transaction as the write. On PostgreSQL each count is split over the same four slots
 * (by the study uuid's last character) so that concurrent ingests do not wait on one row; SQLite
 * keeps one slot. An update that changes none of the counted columns fires no trigger.
 */
const COUNTED = ['namespace_id', 'study_status', 'modality_bits', 'deleted'] as const;

const TOTAL_KEY = 'namespace_id, deleted, study_status, modality_bits, slot';

export const studyCountTotals: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = isPostgres(db);
    const bigint = pg ? 'bigint' : 'integer';
    const withoutRowid = pg ? '' : ' without rowid';
    await sql
      .raw(
        `create table study_count_totals (
          namespace_id text not null, deleted integer not null, study_status text not null,
          modality_bits bigint not null, slot integer not null, n ${bigint} not null,
          primary key (${TOTAL_KEY}))${withoutRowid}`,
      )
      .execute(db);
    if (pg) await postgresTriggers(db);
    else await sqliteTriggers(db);
    // The studies already there, from the month counts (the same studies, summed over months).
    await sql
      .raw(
        `insert into study_count_totals (${TOTAL_KEY}, n)
         select namespace_id, deleted, study_status, modality_bits, slot, sum(n)
         from study_counts_by_month group by ${TOTAL_KEY}`,
      )
      .execute(db);
  },
};

/** Adds `delta` to the total row of the study `row` (NEW or OLD) inside a trigger. */
function addStatement(pg: boolean, row: 'new' | 'old', delta: 1 | -1): string {
  const trashed = pg ? `(${row}.deleted is not null)::int` : `(${row}.deleted is not null)`;
  const slot = pg ? `ascii(right(${row}.uuid, 1)) % 4` : '0';
  return `
    insert into study_count_totals (${TOTAL_KEY}, n)
    values (${row}.namespace_id, ${trashed}, ${row}.study_status, ${row}.modality_bits, ${slot}, ${delta})
    on conflict (${TOTAL_KEY}) do update set n = study_count_totals.n + excluded.n;`;
}

/** Does the update move the study between totals? */
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
      `create trigger study_totals_insert after insert on studies begin ${addStatement(false, 'new', 1)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_totals_delete after delete on studies begin ${addStatement(false, 'old', -1)} end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_totals_update after update of ${COUNTED.join(', ')} on studies
       when ${changed(false)}
       begin ${addStatement(false, 'old', -1)} ${addStatement(false, 'new', 1)} end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  await sql
    .raw(
      `create function study_totals_apply() returns trigger language plpgsql as $$
       begin
         if tg_op in ('UPDATE', 'DELETE') then ${addStatement(true, 'old', -1)} end if;
         if tg_op in ('UPDATE', 'INSERT') then ${addStatement(true, 'new', 1)} end if;
         return null;
       end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_totals_insert_delete after insert or delete on studies
       for each row execute function study_totals_apply()`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger study_totals_update after update of ${COUNTED.join(', ')} on studies
       for each row when (${changed(true)}) execute function study_totals_apply()`,
    )
    .execute(db);
}
