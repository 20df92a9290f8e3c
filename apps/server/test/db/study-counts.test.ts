import fs from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modalityMask, studySearchRequest } from '@imaging-inbox/contract';
import { totalFromCountsQuery } from '../../src/repositories/study-counts.sql.js';
import type { StudyQuery } from '../../src/repositories/study-query.types.js';
import { applyStudyFilters } from '../../src/repositories/study-search.sql.js';
import { buildStudyQuery } from '../../src/domain/study-query.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { BLANK_STUDY_TEXT } from '../support/blank-study-text.js';

const CT_SMALL = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';
const CT_STUDY_UID = '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322';

/** A search as study/list builds it from no parameters, with `over` on top. */
const query = (over: Partial<StudyQuery> = {}): StudyQuery => ({
  ...buildStudyQuery(studySearchRequest.parse({})),
  ...over,
});

/**
 * The maintained study counts (migrations 20261129T0100 and 20261203T0700) must always equal a
 * real count of the studies: after every kind of write, and for every date range, including the edges of months and
 * study dates that are not eight digits.
 */
describe.each(DIALECTS)('maintained study counts on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let emergency: string;
  let cardiology: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
    cardiology = await server.api.namespaceOf(clinician, 'Cardiology');
  });
  afterAll(() => server?.stop());

  const db = () => server.ctx.db.kysely;
  const allNamespaces = async () =>
    (await db().selectFrom('studies').select('namespace_id').distinct().execute()).map((r) => r.namespace_id);

  /** The day and month tables against a GROUP BY of the studies themselves. */
  async function expectTablesExact() {
    const trashed = sql<number>`case when deleted is null then 0 else 1 end`;
    const studies = await db()
      .selectFrom('studies')
      .select(['namespace_id', 'study_date', 'study_status', 'modality_bits'])
      .select(trashed.as('deleted'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy(['namespace_id', 'study_date', 'study_status', 'modality_bits', trashed])
      .execute();
    const days = await db()
      .selectFrom('study_counts_by_day')
      .select(['namespace_id', 'study_date', 'study_status', 'modality_bits', 'deleted'])
      .select(sql<number>`sum(n)`.as('n'))
      .groupBy(['namespace_id', 'study_date', 'study_status', 'modality_bits', 'deleted'])
      .having(sql`sum(n)`, '<>', 0)
      .execute();
    const key = (r: { namespace_id: string; study_date: string; study_status: string }) => JSON.stringify(r);
    const norm = (rows: typeof studies) =>
      rows
        .map((r) =>
          key({
            namespace_id: r.namespace_id,
            study_date: r.study_date,
            study_status: r.study_status,
            modality_bits: Number(r.modality_bits),
            deleted: Number(r.deleted),
            n: Number(r.n),
          } as never),
        )
        .sort();
    expect(norm(days)).toEqual(norm(studies));
    // Each month row is the sum of its days.
    const months = await db()
      .selectFrom('study_counts_by_month')
      .select(['namespace_id', 'month', 'study_status', 'modality_bits', 'deleted'])
      .select(sql<number>`sum(n)`.as('n'))
      .groupBy(['namespace_id', 'month', 'study_status', 'modality_bits', 'deleted'])
      .having(sql`sum(n)`, '<>', 0)
      .execute();
    const monthsOfDays = await db()
      .selectFrom('study_counts_by_day')
      .select(['namespace_id', 'month', 'study_status', 'modality_bits', 'deleted'])
      .select(sql<number>`sum(n)`.as('n'))
      .groupBy(['namespace_id', 'month', 'study_status', 'modality_bits', 'deleted'])
      .having(sql`sum(n)`, '<>', 0)
      .execute();
    const normMonths = (rows: typeof months) =>
      rows
        .map((r) => JSON.stringify({ ...r, modality_bits: Number(r.modality_bits), n: Number(r.n) }))
        .sort();
    expect(normMonths(months)).toEqual(normMonths(monthsOfDays));
    // Each total (no date) is the sum of the studies of its namespace, trash, status and modalities.
    const totals = await db()
      .selectFrom('study_count_totals')
      .select(['namespace_id', 'study_status', 'modality_bits', 'deleted'])
      .select(sql<number>`sum(n)`.as('n'))
      .groupBy(['namespace_id', 'study_status', 'modality_bits', 'deleted'])
      .having(sql`sum(n)`, '<>', 0)
      .execute();
    const totalsOfStudies = await db()
      .selectFrom('studies')
      .select(['namespace_id', 'study_status', 'modality_bits'])
      .select(trashed.as('deleted'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .groupBy(['namespace_id', 'study_status', 'modality_bits', trashed])
      .execute();
    const normTotals = (rows: typeof totals) =>
      rows
        .map((r) =>
          JSON.stringify({
            namespace_id: r.namespace_id,
            study_status: r.study_status,
            modality_bits: Number(r.modality_bits),
            deleted: Number(r.deleted),
            n: Number(r.n),
          }),
        )
        .sort();
    expect(normTotals(totals)).toEqual(normTotals(totalsOfStudies));
  }

  /** Every countable search's total from the counts equals a scan of the studies. */
  async function expectTotalsExact() {
    const namespaces = await allNamespaces();
    const dates = (await db().selectFrom('studies').select('study_date').distinct().execute())
      .map((r) => r.study_date)
      .filter((d) => /^\d{8}$/.test(d))
      .sort();
    const some = dates[Math.floor(dates.length / 2)] ?? '20260115';
    const month = some.slice(0, 6);
    const ranges: StudyQuery['studyDate'][] = [
      {},
      { ge: some },
      { le: some },
      { ge: some, le: some },
      { ge: `${month}01`, le: `${month}31` },
      { ge: `${month}02`, le: `${month}30` },
      { ge: dates[0], le: dates[dates.length - 1] },
      { ge: '19000101', le: '29991231' },
      { ge: `${month}01` },
      { le: `${month}31` },
      { ge: '20260101', le: '20251231' },
      { ge: '20260101', le: '20260131' },
      { ge: '20251201', le: '20260228' },
      { ge: '2026', le: '20260132' },
    ];
    const modalitySets = [undefined, ['CT'], ['CT', 'MR'], ['SR'], ['MG', 'US', 'CR']];
    for (const deleted of [false, true]) {
      for (const studyDate of ranges) {
        for (const modalities of modalitySets) {
          const q = query({ deleted, studyDate, modalities });
          const scanned = await applyStudyFilters(db(), db().selectFrom('studies'), q, namespaces)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          const counted = Number(
            (await totalFromCountsQuery(db(), q, namespaces).executeTakeFirstOrThrow()).n,
          );
          expect({ deleted, studyDate, modalities, n: counted }).toEqual({
            deleted,
            studyDate,
            modalities,
            n: Number(scanned.n),
          });
        }
      }
    }
  }

  /** What study/count answers equals the rows a page walk of study/list returns. */
  async function expectApiTotalsMatchPages(params: Record<string, string>) {
    const total = (await server.api.call('study/count', params, clinician)).body.count as number;
    let walked = 0;
    for (let page = 1; ; page++) {
      const { body } = await server.api.call(
        'study/list',
        { ...params, 'page.rows': '7', 'page.number': String(page), with_count: '1' },
        clinician,
      );
      expect(body.page.total).toBe(total);
      walked += body.studies.length;
      if (!body.page.more) break;
    }
    expect(walked).toBe(total);
  }

  it('counts the studies already there and those the demo seed made', async () => {
    await expectTablesExact();
    await expectTotalsExact();
  });

  it('stays exact through creates, status changes, moves, modality and date changes, deletes and restores', async () => {
    // A create through the upload calls: unlisted while it fills, then listed by study/sync.
    const before = await server.api.call('study/count', {}, clinician);
    const added = await server.api.call(
      'study/add',
      { storage_namespace: emergency, study_uid: CT_STUDY_UID },
      clinician,
    );
    expect(added.body.status).toBe('OK');
    const uuid = added.body.uuid as string;
    expect((await server.api.upload(clinician, emergency, fs.readFileSync(CT_SMALL))).status).toBe(202);
    await expectTablesExact();
    expect((await server.api.call('study/count', {}, clinician)).body.count).toBe(before.body.count);
    expect((await server.api.call('study/sync', { uuid, image_count: 1 }, clinician)).body.study_status).toBe(
      'NEW',
    );
    expect((await server.api.call('study/count', {}, clinician)).body.count).toBe(before.body.count + 1);
    await expectTablesExact();

    // Delete and restore through the API.
    expect((await server.api.call('study/delete', { uuid }, clinician)).body.status).toBe('OK');
    expect((await server.api.call('study/count', {}, clinician)).body.count).toBe(before.body.count);
    expect((await server.api.call('study/count', { 'filter.deleted': '1' }, clinician)).body.count).toBe(1);
    await expectTotalsExact();
    expect((await server.api.call('study/restore', { uuid }, clinician)).body.status).toBe('OK');
    await expectTablesExact();

    // Studies whose dates are empty, malformed or at a month's edges, written straight to the table.
    const account = (
      await db().selectFrom('studies').select('account_id').where('uuid', '=', uuid).executeTakeFirstOrThrow()
    ).account_id;
    const odd = [
      '',
      '2026',
      '2026-05-01',
      'ABCDEFGH',
      '20260100',
      '20260199',
      '20260131',
      '20260201',
      '20260132',
      '20260101',
    ];
    for (const [i, study_date] of odd.entries()) {
      await db()
        .insertInto('studies')
        .values({
          ...BLANK_STUDY_TEXT,
          uuid: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          account_id: account,
          namespace_id: i % 2 ? emergency : cardiology,
          study_uid: `1.2.826.0.1.3680043.10.999.${i}`,
          study_date,
          modality: i % 3 ? 'CT' : 'MR\\SR',
          modality_bits: i % 3 ? modalityMask(['CT']) : modalityMask(['MR', 'SR']),
          study_status: i === 3 ? 'UPLOADING' : 'NEW',
          created: Date.now(),
          updated: Date.now(),
        })
        .execute();
    }
    await expectTablesExact();
    await expectTotalsExact();

    const odd0 = '00000000-0000-4000-8000-000000000000';
    // A move between namespaces, a modality change, a date change, a status change, several at once.
    await db().updateTable('studies').set({ namespace_id: emergency }).where('uuid', '=', odd0).execute();
    await db()
      .updateTable('studies')
      .set({ modality: 'US', modality_bits: modalityMask(['US']) })
      .where('uuid', '=', uuid)
      .execute();
    await db().updateTable('studies').set({ study_date: '20251231' }).where('uuid', '=', odd0).execute();
    await db()
      .updateTable('studies')
      .set({ study_status: 'INCOMPLETE' })
      .where('namespace_id', '=', cardiology)
      .execute();
    await db()
      .updateTable('studies')
      .set({ namespace_id: cardiology, study_date: '20260215', study_status: 'NEW', deleted: Date.now() })
      .where('uuid', '=', '00000000-0000-4000-8000-000000000001')
      .execute();
    // Updates that change no counted column leave the counts as they are.
    await db().updateTable('studies').set({ image_count: 3, star: 1 }).where('uuid', '=', odd0).execute();
    await db()
      .updateTable('studies')
      .set({ deleted: Date.now() + 1 })
      .where('deleted', 'is not', null)
      .execute();
    await expectTablesExact();
    await expectTotalsExact();

    // A hard delete (purge) inside a transaction that is rolled back counts nothing; committed, it does.
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await trx.deleteFrom('studies').where('uuid', '=', odd0).execute();
          throw new Error('rolled back');
        }),
    ).rejects.toThrow('rolled back');
    await expectTablesExact();
    await db().deleteFrom('studies').where('uuid', 'like', '00000000-0000-4000-8000-%').execute();
    await expectTablesExact();
    await expectTotalsExact();
  });

  it('answers study/count and with_count as a page walk does', async () => {
    const searches: Record<string, string>[] = [
      {},
      { 'filter.modality.in': '["CT","MR"]' },
      { 'filter.study_date.ge': '20000101', 'filter.study_date.le': '20261231' },
      { 'filter.deleted': '1' },
      { 'filter.patient_name.like': 'A%' },
    ];
    for (const params of searches) {
      await expectApiTotalsMatchPages(params);
    }
  });

  it.runIf(dialect === 'postgres')(
    'lets concurrent creations of studies with the same day, status and modality commit without waiting',
    async () => {
      const account = (await db().selectFrom('accounts').select('uuid').executeTakeFirstOrThrow()).uuid;
      const study = (i: number) => ({
        ...BLANK_STUDY_TEXT,
        // Last characters 0 and 1: different slots of the same count rows.
        uuid: `00000000-0000-4000-9000-00000000000${i}`,
        account_id: account,
        namespace_id: emergency,
        study_uid: `1.2.826.0.1.3680043.10.998.${i}`,
        study_date: '20260301',
        modality: 'CT',
        modality_bits: modalityMask(['CT']),
        study_status: 'NEW',
        created: Date.now(),
        updated: Date.now(),
      });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      let inserted = () => {};
      const first = new Promise<void>((resolve) => (inserted = resolve));
      const holder = db()
        .transaction()
        .execute(async (trx) => {
          await trx.insertInto('studies').values(study(0)).execute();
          inserted();
          await held;
        });
      await first;
      try {
        // Had it to wait for the open transaction's count rows, the lock timeout would fail it.
        await db()
          .transaction()
          .execute(async (trx) => {
            await sql`set local lock_timeout = '2s'`.execute(trx);
            await trx.insertInto('studies').values(study(1)).execute();
          });
      } finally {
        release();
        await holder;
      }
      await expectTablesExact();
      await db().deleteFrom('studies').where('uuid', 'like', '00000000-0000-4000-9000-%').execute();
      await expectTablesExact();
    },
  );
});
