import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNLISTED_STUDY_STATUSES } from '@imaging-inbox/contract';
import type { StudyRow } from '../../src/repositories/studies.repository.js';
import { buildStudyQuery } from '../../src/domain/study-query.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('study/list and study/count on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let visible: StudyRow[];
  let namespaces: Map<string, string>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    const groups = await server.api.groups(sid);
    namespaces = new Map(groups.map((g) => [g.name, g.namespace_id]));
    visible = await server.ctx.db.kysely
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', 'in', [...namespaces.values()])
      .where('deleted', 'is', null)
      .execute();
  });
  afterAll(() => server?.stop());

  const list = (params: Record<string, string | number> = {}) => server.api.call('study/list', params, sid);
  const count = async (params: Record<string, string | number> = {}) =>
    (await server.api.call('study/count', params, sid)).body.count as number;

  it('lists only the studies of the groups the user belongs to, newest upload first', async () => {
    const { body } = await list();
    expect(body.status).toBe('OK');
    expect(visible.length).toBeGreaterThan(5);
    expect(body.studies).toHaveLength(visible.length);
    const created = body.studies.map((s: { created: string }) => Date.parse(s.created));
    expect(created).toEqual([...created].sort((a, b) => b - a));
    expect(new Set(body.studies.map((s: { phi_namespace: string }) => s.phi_namespace))).toEqual(
      new Set(namespaces.values()),
    );
    expect(await count()).toBe(visible.length);
    const all = await server.ctx.db.kysely.selectFrom('studies').select('uuid').execute();
    expect(all.length).toBeGreaterThan(visible.length);
  });

  it('pages with page.rows, page.number and a more flag', async () => {
    const first = await list({ 'page.rows': 5, 'page.number': 1 });
    const second = await list({ 'page.rows': 5, 'page.number': 2 });
    expect(first.body.page).toEqual({ number: 1, rows: 5, more: 1 });
    expect(first.body.studies).toHaveLength(5);
    const firstIds = first.body.studies.map((s: { uuid: string }) => s.uuid);
    expect(
      second.body.studies.map((s: { uuid: string }) => s.uuid).some((u: string) => firstIds.includes(u)),
    ).toBe(false);
    const last = await list({ 'page.rows': 5, 'page.number': Math.ceil(visible.length / 5) });
    expect(last.body.page.more).toBe(0);
  });

  it('matches patient_name like with % as the only wildcard, case-insensitively', async () => {
    const target = visible[0]!;
    const last = target.patient_name.split('^')[0]!;
    const expected = visible.filter((s) =>
      s.patient_name.toUpperCase().startsWith(last.toUpperCase()),
    ).length;
    expect(await count({ 'filter.patient_name.like': `${last.toLowerCase()}%` })).toBe(expected);
    const first = target.patient_name.split('^')[1] ?? '';
    const both = visible.filter(
      (s) => s.patient_name.toUpperCase().startsWith(last) && s.patient_name.toUpperCase().includes(first),
    ).length;
    expect(await count({ 'filter.patient_name.like': `${last}%${first}` })).toBe(both);
    // `_` is literal, not a single-character wildcard.
    expect(await count({ 'filter.patient_name.like': `${last.slice(0, -1)}_%` })).toBe(0);
  });

  it('filters by exact accession number, MRN, study uid and uuid', async () => {
    const target = visible[3]!;
    const one = await list({ 'filter.accession_number.equals': target.accession_number });
    expect(one.body.studies.map((s: { uuid: string }) => s.uuid)).toEqual([target.uuid]);
    expect(await count({ 'filter.accession_number.equals': target.accession_number.slice(0, -1) })).toBe(0);
    expect(await count({ 'filter.patientid.like': target.patientid })).toBe(
      visible.filter((s) => s.patientid === target.patientid).length,
    );
    expect(await count({ 'filter.study_uid.equals': target.study_uid })).toBe(1);
    expect(await count({ 'filter.uuid.equals': target.uuid })).toBe(1);
  });

  it('filters study_date ranges, sex, birth date and modality in', async () => {
    const dates = visible.map((s) => s.study_date).sort();
    const ge = dates[2]!;
    const le = dates[dates.length - 3]!;
    const inRange = visible.filter((s) => s.study_date >= ge && s.study_date <= le).length;
    expect(
      await count({
        'filter.study_date.ge': ge,
        'filter.study_date.le': `${le.slice(0, 4)}-${le.slice(4, 6)}-${le.slice(6)}`,
      }),
    ).toBe(inRange);
    expect(await count({ 'filter.patient_sex.equals': 'F' })).toBe(
      visible.filter((s) => s.patient_sex === 'F').length,
    );
    const dob = visible[1]!.patient_birth_date;
    expect(await count({ 'filter.patient_birth_date.equals': dob })).toBe(
      visible.filter((s) => s.patient_birth_date === dob).length,
    );
    const modalities = [...new Set(visible.map((s) => s.modality.split('\\')[0]!))].slice(0, 2);
    const expected = visible.filter((s) => s.modality.split('\\').some((m) => modalities.includes(m))).length;
    expect(await count({ 'filter.modality.in': JSON.stringify(modalities) })).toBe(expected);
  });

  it('answers the total with the page when asked with with_count=1', async () => {
    const { body } = await list({ 'page.rows': 3, with_count: 1 });
    expect(body.page).toEqual({ number: 1, rows: 3, more: 1, total: visible.length });
    expect((await list({ 'page.rows': 3 })).body.page.total).toBeUndefined();
  });

  it('matches modalities outside the known list through the modality table', async () => {
    const target = visible[2]!;
    await server.ctx.db.kysely
      .insertInto('study_modalities')
      .values({ study_uuid: target.uuid, modality: 'ZZX' })
      .execute();
    expect(await count({ 'filter.modality.in': '["ZZX"]' })).toBe(1);
    const first = target.modality.split('\\')[0]!;
    const expected = visible.filter((s) => s.modality.split('\\').includes(first)).length;
    expect(await count({ 'filter.modality.in': JSON.stringify(['ZZX', first]) })).toBe(expected);
    await server.ctx.db.kysely.deleteFrom('study_modalities').where('modality', '=', 'ZZX').execute();
  });

  it('sorts by every section 9 option', async () => {
    const byName = await list({ sort_by: 'patient_name-asc' });
    const names = byName.body.studies.map((s: { patient_name: string }) => s.patient_name.toUpperCase());
    expect(names).toEqual([...names].sort());
    const byDate = await list({ sort_by: 'study_date-desc' });
    const dates = byDate.body.studies.map((s: { study_date: string }) => s.study_date);
    expect(dates).toEqual([...dates].sort().reverse());
    const oldest = await list({ sort_by: 'created-asc' });
    const created = oldest.body.studies.map((s: { created: string }) => s.created);
    expect(created).toEqual([...created].sort());
    for (const sort of [
      'customfield-priority-asc',
      'customfield-nominated_at-desc',
      'patient_name-desc',
      'study_date-asc',
      'created-desc',
    ]) {
      expect((await list({ sort_by: sort })).body.status).toBe('OK');
    }
  });

  it('filters created ranges in the given time zone', async () => {
    const newest = visible.reduce((a, b) => (a.created > b.created ? a : b));
    const day = new Date(newest.created).toISOString().slice(0, 10);
    const expectedUtc = visible.filter((s) => new Date(s.created).toISOString().slice(0, 10) === day).length;
    expect(
      await count({ 'filter.created.ge': day, 'filter.created.le': day, 'filter.timezone': 'UTC' }),
    ).toBe(expectedUtc);
    // The same calendar day read in Tokyo starts nine hours earlier.
    const tokyoStart = Date.parse(`${day}T00:00:00+09:00`);
    const tokyoEnd = tokyoStart + 86_400_000 - 1;
    const expectedTokyo = visible.filter((s) => s.created >= tokyoStart && s.created <= tokyoEnd).length;
    expect(
      await count({ 'filter.created.ge': day, 'filter.created.le': day, 'filter.timezone': 'Asia/Tokyo' }),
    ).toBe(expectedTokyo);
  });

  it('narrows to one namespace with phi_namespace and finds nothing in a foreign one', async () => {
    const emergency = namespaces.get('Emergency')!;
    expect(await count({ 'filter.phi_namespace.equals': emergency })).toBe(
      visible.filter((s) => s.namespace_id === emergency).length,
    );
    const intake = await server.ctx.db.kysely
      .selectFrom('groups')
      .select('namespace_id')
      .where('name', '=', 'PACS Intake')
      .executeTakeFirstOrThrow();
    expect(await count({ 'filter.phi_namespace.in': JSON.stringify([intake.namespace_id]) })).toBe(0);
  });

  it('matches SMART_SEARCH on name prefix, MRN or accession, and tags and star', async () => {
    const target = visible[4]!;
    const hits = await list({ 'filter.SMART_SEARCH': target.accession_number });
    expect(hits.body.studies.map((s: { uuid: string }) => s.uuid)).toContain(target.uuid);
    const tagged = await server.ctx.db.kysely
      .selectFrom('study_tags')
      .select(['tag', 'study_uuid'])
      .where(
        'study_uuid',
        'in',
        visible.map((s) => s.uuid),
      )
      .execute();
    const tag = tagged[0]!.tag;
    expect(await count({ 'filter.tags.in': JSON.stringify([tag]) })).toBe(
      tagged.filter((t) => t.tag === tag).length,
    );
    const taggedPage = await list({ 'filter.tags.in': JSON.stringify([tag]) });
    expect(taggedPage.body.studies.map((s: { uuid: string }) => s.uuid).sort()).toEqual(
      tagged
        .filter((t) => t.tag === tag)
        .map((t) => t.study_uuid)
        .sort(),
    );
    expect(await count({ 'filter.star.equals': 1 })).toBe(visible.filter((s) => s.star === 1).length);
  });

  it('carries the computed permissions object on each study', async () => {
    const { body } = await list({ 'page.rows': 1 });
    expect(body.studies[0].permissions).toMatchObject({ study_view: 1, study_delete: 1, study_push: 0 });
    const viewerSid = await server.api.login('viewer@demo.local');
    const viewer = await server.api.call('study/list', { 'page.rows': 1 }, viewerSid);
    expect(viewer.body.studies[0].permissions).toMatchObject({
      study_view: 1,
      study_delete: 0,
      study_download: 0,
    });
  });

  it('refuses bad filters, sorts and pages with a clear error', async () => {
    for (const params of <Record<string, string | number>[]>[
      { 'filter.no_such_field.like': 'x' },
      { sort_by: 'password-asc' },
      { sort_by: 'created' },
      { 'page.rows': 0 },
      { 'page.number': 'abc' },
      { 'filter.study_date.ge': '2024-13-45x' },
      { 'filter.modality.in': '[not json' },
      { 'filter.created.ge': 'yesterday' },
      { 'filter.timezone': 'Mars/Olympus' },
    ]) {
      const { status, body } = await list(params);
      expect(status, JSON.stringify(params)).toBe(412);
      expect(body.error_type).toBe('INVALID_FIELD');
    }
  });

  it('audits every search, a repeat of the same search within a minute once', async () => {
    const searches = () =>
      server.ctx.db.kysely
        .selectFrom('audit_events')
        .select(['id', 'detail'])
        .where('action', '=', 'STUDY_SEARCH')
        .orderBy('id')
        .execute();
    const before = await searches();
    await list({ 'filter.patient_name.like': 'A%' });
    await list({ 'filter.patient_name.like': 'A%' });
    await list({ 'filter.patient_name.like': 'B%' });
    const after = await searches();
    expect(after.length).toBe(before.length + 2);
    expect(after.slice(-2).map((e) => JSON.parse(e.detail ?? '{}').filters)).toEqual([
      { 'filter.patient_name.like': 'A%' },
      { 'filter.patient_name.like': 'B%' },
    ]);
  });

  it('answers a repeated search for other groups and other pages with their own studies and total', async () => {
    // The repository keeps each search's page query compiled: the same search over other
    // namespaces or at another page must read those, on the merged and the single-query paths.
    const groups = (await server.ctx.db.kysely.selectFrom('groups').select('namespace_id').execute()).map(
      (g) => g.namespace_id,
    );
    expect(groups.length).toBeGreaterThanOrEqual(4);
    const live = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'namespace_id', 'created'])
      .where('deleted', 'is', null)
      .where('study_status', 'not in', [...UNLISTED_STUDY_STATUSES])
      .execute();
    const newestFirst = (a: { created: number; uuid: string }, b: { created: number; uuid: string }) =>
      b.created - a.created || (a.uuid < b.uuid ? -1 : 1);
    const search = (filters: Record<string, string>, page: number, namespaces: string[]) =>
      server.ctx.repos.studies.search(
        buildStudyQuery({ filters, sortBy: undefined, timeZone: undefined, rows: 2, page, withCount: false }),
        namespaces,
      );
    // A name like `%` matches every study but is a text filter, so it takes the single query.
    const searches: Record<string, string>[] = [{}, { 'filter.patient_name.like': '%' }];
    for (const filters of searches) {
      for (const namespaces of [groups.slice(0, 2), groups.slice(2, 4)]) {
        const expected = live
          .filter((s) => namespaces.includes(s.namespace_id))
          .sort(newestFirst)
          .map((s) => s.uuid);
        const q = buildStudyQuery({
          filters,
          sortBy: undefined,
          timeZone: undefined,
          rows: 2,
          page: 1,
          withCount: true,
        });
        expect(await server.ctx.repos.studies.count(q, namespaces)).toBe(expected.length);
        for (const page of [1, 2, 3]) {
          const { rows, more } = await search(filters, page, namespaces);
          expect(rows.map((r) => r.uuid)).toEqual(expected.slice((page - 1) * 2, page * 2));
          expect(more).toBe(expected.length > page * 2);
        }
      }
    }
  });
});
