import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studySearchRequest, UNLISTED_STUDY_STATUSES } from '@imaging-inbox/contract';
import { StudiesRepository } from '../../src/repositories/studies.repository.js';
import type { StudyQuery } from '../../src/repositories/study-query.types.js';
import { applyStudyFilters, applyStudySort } from '../../src/repositories/study-search.sql.js';
import { buildStudyQuery } from '../../src/domain/study-query.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { BLANK_STUDY_TEXT } from '../support/blank-study-text.js';
import { searchNamespaces, type SearchNamespaces } from '../support/search-namespaces.js';

/** A search as study/list builds it from these parameters. */
const query = (params: Record<string, string> = {}): StudyQuery =>
  buildStudyQuery(studySearchRequest.parse(params));

const prefix = (like: string) => ({ 'filter.patient_name.like': like });

/**
 * A patient-name prefix's page and total are read, on SQLite, from an index of the listed live
 * studies whose WHERE names the unlisted statuses as the search writes them (decision 0083). The
 * answer must stay exactly the plain sorted read and count of every listed match, whatever the
 * statuses, the trash and the other accounts hold.
 */
describe.each(DIALECTS)('a patient-name prefix on %s', (dialect) => {
  let server: TestServer;
  /** The clinician's namespaces and account, and another account's namespace. */
  let world: SearchNamespaces;
  let serial = 0;

  const db = () => server.ctx.db.kysely;

  async function insert(
    namespace: string,
    rows: { created: number; name: string; status?: string; deleted?: number }[],
    owner = world.account,
  ): Promise<void> {
    const values = rows.map((r) => {
      serial++;
      // Uuids not in upload order, so ties in upload time are broken by uuid, not by insertion.
      const hex = ((serial * 7919) % 1_000_003).toString(16).padStart(12, '0');
      return {
        ...BLANK_STUDY_TEXT,
        uuid: `00000000-0000-4000-8${String(serial % 10)}00-${hex}`,
        account_id: owner,
        namespace_id: namespace,
        study_uid: `1.2.826.0.1.3680043.10.983.${serial}`,
        patient_name: r.name,
        patient_name_key: r.name.toUpperCase(),
        study_date: '20261110',
        modality: 'CT',
        modality_bits: 1,
        study_status: r.status ?? 'NEW',
        deleted: r.deleted ?? null,
        created: r.created,
        updated: r.created,
      };
    });
    await db().insertInto('studies').values(values).execute();
  }

  /** Every listed live match in these namespaces, newest upload first then uuid, by plain code. */
  async function expected(namespaces: string[], start: string): Promise<string[]> {
    const rows = await db()
      .selectFrom('studies')
      .select(['uuid', 'created', 'patient_name_key', 'study_status'])
      .where('namespace_id', 'in', namespaces)
      .where('deleted', 'is', null)
      .execute();
    return rows
      .filter(
        (r) => r.patient_name_key.startsWith(start) && !UNLISTED_STUDY_STATUSES.includes(r.study_status),
      )
      .sort(
        (a, b) => Number(b.created) - Number(a.created) || (a.uuid < b.uuid ? -1 : a.uuid > b.uuid ? 1 : 0),
      )
      .map((r) => r.uuid);
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const sid = await server.api.login('clinician@demo.local');
    world = await searchNamespaces(server, sid);

    // Names on both sides of the prefix's bounds (KIL, KIN), its own KIM and Kim, a name that is
    // the prefix alone, an underscore that must match itself; pairs sharing their upload time;
    // trash, studies still uploading or being retrieved among the matches.
    const names = ['KIM^ANNA', 'Kim^Bo', 'KIL^ZOE', 'KIN^AL', 'KIM', 'KIM_LEE^X', 'KIMBERLY^Y', 'KI^M'];
    const base = Date.UTC(2030, 0, 1);
    await insert(
      world.emergency,
      Array.from({ length: 64 }, (_, i) => ({
        created: base + Math.floor(i / 3) * 60_000,
        name: names[i % names.length]!,
        status: i === 9 ? 'UPLOADING' : i === 17 ? 'RETRIEVING' : undefined,
        deleted: i === 24 || i === 40 ? base : undefined,
      })),
    );
    await insert(
      world.cardiology,
      Array.from({ length: 24 }, (_, i) => ({
        created: base + i * 90_000 + (i % 4 === 0 ? 0 : 7),
        name: names[(i * 3) % names.length]!,
      })),
    );
    // Another account's namespace: the newest matches of all.
    await insert(
      world.otherNamespace,
      Array.from({ length: 10 }, (_, i) => ({ created: base + 100_000_000 + i, name: 'KIM^OTHER' })),
      world.otherAccount,
    );
  });
  afterAll(() => server?.stop());

  it.each([
    ['KIM%', 'KIM'],
    ['kim%', 'KIM'],
    ['KIM_%', 'KIM_'],
    ['KI%', 'KI'],
    ['ZZZ%', 'ZZZ'],
  ])('pages and totals %s exactly as the sorted read, on every page and offset', async (like, start) => {
    const repository = new StudiesRepository(db());
    const namespaces = [world.emergency, world.cardiology];
    const all = await expected(namespaces, start);
    if (start !== 'ZZZ') expect(all.length).toBeGreaterThan(5);
    for (const rows of [1, 4, 7]) {
      for (let page = 1; page <= Math.ceil(all.length / rows) + 1; page++) {
        const q = query({ ...prefix(like), 'page.rows': String(rows), 'page.number': String(page) });
        const { rows: found, more } = await repository.search(q, namespaces);
        expect(found.map((r) => r.uuid)).toEqual(all.slice((page - 1) * rows, page * rows));
        expect(more).toBe(all.length > page * rows);
      }
      for (const offset of [0, 3, 11]) {
        const q = { ...query({ ...prefix(like), 'page.rows': String(rows) }), offset };
        const { rows: found } = await repository.search(q, namespaces);
        expect(found.map((r) => r.uuid)).toEqual(all.slice(offset, offset + rows));
      }
    }
    expect(await repository.count(query(prefix(like)), namespaces)).toBe(all.length);
    for (const ns of namespaces) {
      expect(await repository.count(query(prefix(like)), [ns])).toBe((await expected([ns], start)).length);
    }
    // The other account's namespace is counted only when asked for: never with this account's.
    expect(await repository.count(query(prefix(like)), [world.otherNamespace])).toBe(
      start === 'ZZZ' ? 0 : (await expected([world.otherNamespace], start)).length,
    );
  });

  it('counts the trash and the studies being filled as before', async () => {
    const repository = new StudiesRepository(db());
    const trash = { ...query(prefix('KIM%')), deleted: true };
    const deleted = await db()
      .selectFrom('studies')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('namespace_id', 'in', [world.emergency, world.cardiology])
      .where('deleted', 'is not', null)
      .where('patient_name_key', 'like', 'KIM%')
      .executeTakeFirstOrThrow();
    expect(Number(deleted.n)).toBe(2);
    expect(await repository.count(trash, [world.emergency, world.cardiology])).toBe(2);
  });

  it.runIf(dialect === 'sqlite')(
    'reads the page and the total from the index of listed studies, checking no status per match',
    async () => {
      const q = query(prefix('KIM%'));
      const filtered = () =>
        applyStudyFilters(db(), db().selectFrom('studies'), q, [world.emergency, world.cardiology]);
      const plan = async (compiled: CompiledQuery) =>
        (
          await db().executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          )
        ).rows
          .map((r) => r.detail)
          .join(' | ');
      const count = filtered()
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .compile();
      const page = applyStudySort(filtered(), q)
        .select(['studies.uuid', 'studies.created'])
        .limit(51)
        .compile();
      expect(await plan(count)).toMatch(
        /COVERING INDEX studies_listed_ns_name_created \(namespace_id=\? AND patient_name_key>\? AND patient_name_key<\?\)$/,
      );
      expect(await plan(page)).toMatch(/COVERING INDEX studies_listed_ns_name_created /);
    },
  );
});
