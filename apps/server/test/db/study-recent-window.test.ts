import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modalityMask, studySearchRequest, UNLISTED_STUDY_STATUSES } from '@imaging-inbox/contract';
import { StudiesRepository } from '../../src/repositories/studies.repository.js';
import type { StudyQuery } from '../../src/repositories/study-query.types.js';
import { RECENT_WINDOW, recentWindowApplies } from '../../src/repositories/study-recent-window.sql.js';
import { buildStudyQuery } from '../../src/domain/study-query.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { BLANK_STUDY_TEXT } from '../support/blank-study-text.js';
import { searchNamespaces, type SearchNamespaces } from '../support/search-namespaces.js';

/** A search as study/list builds it from these parameters. */
const query = (params: Record<string, string> = {}): StudyQuery =>
  buildStudyQuery(studySearchRequest.parse(params));

/** A range of study dates as study/list takes it. */
const range = (ge: string, le: string) => ({ 'filter.study_date.ge': ge, 'filter.study_date.le': le });

/**
 * A date range's streams read each namespace's newest studies first and sort all of its matches
 * only when those do not fill the page (decision 0082). Whichever way a stream is read, the page
 * must be exactly the one of a plain sorted read of every match.
 */
describe.each(DIALECTS)('a date range read from the newest studies on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  /** The clinician's namespaces and account, and another account's namespace. */
  let world: SearchNamespaces;
  let serial = 0;

  const db = () => server.ctx.db.kysely;

  async function insert(
    namespace: string,
    rows: { created: number; date: string; status?: string; deleted?: number; modality?: 'CT' | 'MR' }[],
    owner = world.account,
  ): Promise<string[]> {
    const uuids: string[] = [];
    for (let i = 0; i < rows.length; i += 200) {
      const values = rows.slice(i, i + 200).map((r) => {
        serial++;
        // Uuids not in upload order, so ties in upload time are broken by uuid, not by insertion.
        const hex = ((serial * 7919) % 1_000_003).toString(16).padStart(12, '0');
        const uuid = `00000000-0000-4000-8${String(serial % 10)}00-${hex}`;
        uuids.push(uuid);
        return {
          ...BLANK_STUDY_TEXT,
          uuid,
          account_id: owner,
          namespace_id: namespace,
          study_uid: `1.2.826.0.1.3680043.10.982.${serial}`,
          study_date: r.date,
          modality: r.modality ?? 'CT',
          modality_bits: modalityMask([r.modality ?? 'CT']),
          study_status: r.status ?? 'NEW',
          deleted: r.deleted ?? null,
          created: r.created,
          updated: r.created,
        };
      });
      await db().insertInto('studies').values(values).execute();
    }
    return uuids;
  }

  /** Every match of the search in these namespaces, newest upload first then uuid: the plain sorted read. */
  async function expected(namespaces: string[], ge: string, le: string, modality?: 'CT') {
    let q = db()
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .where('study_status', 'not in', [...UNLISTED_STUDY_STATUSES])
      .where('study_date', '>=', ge)
      .where('study_date', '<=', le);
    if (modality) q = q.where(sql<boolean>`(modality_bits & ${modalityMask([modality])}) <> 0`);
    return (await q.orderBy('created', 'desc').orderBy('uuid', 'asc').execute()).map((r) => r.uuid);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    world = await searchNamespaces(server, sid);

    // Emergency: 60 studies a minute or two apart, newest with the newest study dates; some pairs
    // share their upload time; a few in the trash or still uploading among the newest. Uploaded
    // after the demo's studies, so that the newest studies of each namespace are these.
    const base = Date.UTC(2030, 0, 1);
    const emergencyRows = Array.from({ length: 60 }, (_, i) => ({
      created: base + Math.floor(i / 2) * 60_000 * (i % 10 < 2 ? 1 : 2) + (i % 10 < 2 ? 0 : i),
      date: i >= 40 ? '20261110' : i >= 20 ? `202606${String(10 + (i % 10)).padStart(2, '0')}` : '20250115',
      status: i === 55 ? 'UPLOADING' : undefined,
      deleted: i === 57 || i === 45 ? base : undefined,
      modality: i % 3 === 0 ? ('MR' as const) : ('CT' as const),
    }));
    await insert(world.emergency, emergencyRows);
    // Six studies uploaded at the same time, under four newer ones: a window of the eight newest
    // ends inside the tie, so it must hold the tie's first uuids, as the sorted read orders them.
    const newest = Math.max(...emergencyRows.map((r) => r.created));
    await insert(
      world.emergency,
      Array.from({ length: 6 }, () => ({ created: newest + 10, date: '20261110' })),
    );
    await insert(
      world.emergency,
      Array.from({ length: 4 }, (_, i) => ({ created: newest + 20 + i, date: '20261112' })),
    );
    // Cardiology: fewer, interleaved in upload time with Emergency.
    await insert(
      world.cardiology,
      Array.from({ length: 30 }, (_, i) => ({
        created: base + i * 90_000 + 7,
        date: i >= 15 ? '20261111' : '20250120',
      })),
    );
    // Another account's namespace: the newest studies of all, in every range searched.
    await insert(
      world.otherNamespace,
      Array.from({ length: 20 }, (_, i) => ({
        created: base + 100_000_000 + i,
        date: i % 2 ? '20261110' : '20250115',
      })),
      world.otherAccount,
    );
  });
  afterAll(() => server?.stop());

  const ranges: [string, string, string][] = [
    ['recent', '20261101', '20261130'],
    ['old, beyond the window', '20250101', '20250131'],
    ['straddling', '20260601', '20261130'],
    ['everything', '20000101', '20991231'],
    ['nothing', '19900101', '19900131'],
  ];

  it.each(ranges)(
    'pages a %s range exactly as the sorted read, on every page and offset',
    async (_, ge, le) => {
      // A window of 8 newest studies, so that the page windows below fill it, miss it and straddle it.
      const repository = new StudiesRepository(db(), { window: 8, minStudies: 0 });
      const namespaces = [world.emergency, world.cardiology];
      for (const modality of [undefined, 'CT'] as const) {
        const all = await expected(namespaces, ge, le, modality);
        const filters = { ...range(ge, le), ...(modality ? { 'filter.modality.in': '["CT"]' } : {}) };
        for (const rows of [1, 3, 5]) {
          for (let page = 1; page <= Math.ceil(all.length / rows) + 1; page++) {
            const q = query({ ...filters, 'page.rows': String(rows), 'page.number': String(page) });
            expect(recentWindowApplies(q, page * rows + 1)).toBe(true);
            const { rows: found, more } = await repository.search(q, namespaces);
            const slice = all.slice((page - 1) * rows, page * rows);
            expect(found.map((r) => r.uuid)).toEqual(slice);
            expect(more).toBe(all.length > page * rows);
          }
          for (const offset of [0, 2, 7, 8, 9, 13]) {
            const q = { ...query({ ...filters, 'page.rows': String(rows) }), offset };
            const { rows: found } = await repository.search(q, namespaces);
            expect(found.map((r) => r.uuid)).toEqual(all.slice(offset, offset + rows));
          }
        }
        // One namespace at a time, and the total, which no page changes.
        for (const ns of namespaces) {
          const one = await expected([ns], ge, le, modality);
          const { rows: found } = await repository.search(query({ ...filters, 'page.rows': '50' }), [ns]);
          expect(found.map((r) => r.uuid)).toEqual(one.slice(0, 50));
        }
        expect(await repository.count(query(filters), namespaces)).toBe(all.length);
      }
    },
  );

  it('answers study/list with the default window exactly as the sorted read, with the same total', async () => {
    // More than RECENT_WINDOW newer studies in Emergency, one in three within the range searched.
    const newest = Date.UTC(2031, 0, 1);
    await insert(
      world.emergency,
      Array.from({ length: RECENT_WINDOW + 300 }, (_, i) => ({
        created: newest + i * 1000,
        date: i % 3 === 0 ? '20261120' : '20261201',
        deleted: i % 97 === 0 ? newest : undefined,
      })),
    );
    const namespaces = [world.emergency, world.cardiology];
    for (const [ge, le] of [
      ['20261115', '20261125'],
      ['20250101', '20250131'],
      ['20261101', '20261125'],
    ] as const) {
      const all = await expected(namespaces, ge, le);
      // The default window, for every namespace, then only for those of 1,000 studies or more
      // (Emergency, not Cardiology); and study/list as the server runs it.
      for (const minStudies of [0, 1_000]) {
        const repository = new StudiesRepository(db(), { window: RECENT_WINDOW, minStudies });
        for (const page of [1, 2, 3, 40]) {
          const q = query({ ...range(ge, le), 'page.rows': '50', 'page.number': String(page) });
          const { rows: found } = await repository.search(q, namespaces);
          expect(found.map((r) => r.uuid)).toEqual(all.slice((page - 1) * 50, page * 50));
        }
      }
      for (const page of [1, 2, 3]) {
        const { status, body } = await server.api.call(
          'study/list',
          { ...range(ge, le), 'page.rows': 50, 'page.number': page },
          sid,
        );
        expect(status).toBe(200);
        expect(body.studies.map((s: { uuid: string }) => s.uuid)).toEqual(
          all.slice((page - 1) * 50, page * 50),
        );
      }
      const { body } = await server.api.call('study/count', range(ge, le), sid);
      expect(body.count).toBe(all.length);
    }
    // The other account's studies, the newest of all and in these ranges, are never listed.
    const theirs = new Set(
      (
        await db()
          .selectFrom('studies')
          .select('uuid')
          .where('namespace_id', '=', world.otherNamespace)
          .execute()
      ).map((r) => r.uuid),
    );
    expect(theirs.size).toBeGreaterThan(0);
    const { body } = await server.api.call(
      'study/list',
      { ...range('20000101', '20991231'), 'page.rows': 200 },
      sid,
    );
    expect(body.studies.some((s: { uuid: string }) => theirs.has(s.uuid))).toBe(false);
  });
});
