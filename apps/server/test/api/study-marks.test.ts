import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('tags and star on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let study: string;
  let intake: string;
  let seeded: string[];
  let seededIntake: string[];

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const db = server.ctx.db.kysely;
    const first = (name: string) =>
      db
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select('studies.uuid')
        .where('groups.name', '=', name)
        .orderBy('studies.uuid')
        .executeTakeFirstOrThrow();
    study = (await first('Emergency')).uuid;
    intake = (await first('PACS Intake')).uuid;
    seeded = await tagsOf(study);
    seededIntake = await tagsOf(intake);
  });
  afterAll(() => server?.stop());

  const tagsOf = async (uuid: string) =>
    (
      await server.ctx.db.kysely
        .selectFrom('study_tags')
        .select('tag')
        .where('study_uuid', '=', uuid)
        .orderBy('tag')
        .execute()
    ).map((r) => r.tag);
  const edits = async (uuid: string) =>
    (
      await server.ctx.db.kysely
        .selectFrom('audit_events')
        .select('detail')
        .where('action', '=', 'EDIT')
        .where('object_id', '=', uuid)
        .orderBy('id')
        .execute()
    ).map((e) => JSON.parse(e.detail!));

  it('adds a trimmed tag once, finds it in search, deletes it, and audits each change', async () => {
    const add = await server.api.call(
      'tag/add',
      { object: 'study', object_id: study, tag: '  t5 follow-up ' },
      clinician,
    );
    expect(add.body.status).toBe('OK');
    await server.api.call('tag/add', { object: 'study', object_id: study, tag: 't5 follow-up' }, clinician);
    expect(await tagsOf(study)).toEqual([...seeded, 't5 follow-up'].sort());

    const found = await server.api.call('study/list', { 'filter.tags.in': '["t5 follow-up"]' }, clinician);
    expect(found.body.studies.map((s: { uuid: string }) => s.uuid)).toEqual([study]);

    await server.api.call(
      'tag/delete',
      { object: 'study', object_id: study, tag: 't5 follow-up' },
      clinician,
    );
    expect(await tagsOf(study)).toEqual(seeded);
    expect(await edits(study)).toEqual([{ tag_added: 't5 follow-up' }, { tag_removed: 't5 follow-up' }]);
  });

  it('refuses bad tag input and missing permission without changing anything', async () => {
    const cases: [Record<string, string>, string, string][] = [
      [{ object: 'study', object_id: study, tag: '   ' }, clinician, 'MISSING_FIELDS'],
      [{ object: 'study', object_id: study }, clinician, 'MISSING_FIELDS'],
      [{ object: 'study', object_id: study, tag: 'x'.repeat(65) }, clinician, 'INVALID_FIELD'],
      [{ object: 'series', object_id: study, tag: 'a' }, clinician, 'INVALID_FIELD'],
      [{ object: 'study', object_id: intake, tag: 'a' }, clinician, 'NOT_FOUND'],
      [{ object: 'study', object_id: study, tag: 'a' }, viewer, 'NOT_PERMITTED'],
    ];
    for (const [params, sid, errorType] of cases) {
      const { status, body } = await server.api.call('tag/add', params, sid);
      expect({ params, status, type: body.error_type }).toEqual({ params, status: 412, type: errorType });
    }
    expect(await tagsOf(study)).toEqual(seeded);
    expect(await tagsOf(intake)).toEqual(seededIntake);
  });

  it('stars and unstars with study_star, auditing the change', async () => {
    const starOf = async () =>
      (
        await server.ctx.db.kysely
          .selectFrom('studies')
          .select('star')
          .where('uuid', '=', study)
          .executeTakeFirstOrThrow()
      ).star;
    await server.api.call('study/star', { uuid: study, star: 0 }, clinician);
    const before = (await edits(study)).length;
    expect((await server.api.call('study/star', { uuid: study, star: 1 }, clinician)).body.status).toBe('OK');
    expect(await starOf()).toBe(1);
    const last = (await edits(study)).at(-1);
    expect(last).toEqual({ before: { star: 0 }, after: { star: 1 } });
    expect((await edits(study)).length).toBe(before + 1);

    for (const [params, sid, errorType] of [
      [{ uuid: study, star: 2 }, clinician, 'INVALID_FIELD'],
      [{ uuid: study }, clinician, 'MISSING_FIELDS'],
      [{ uuid: study, star: 0 }, viewer, 'NOT_PERMITTED'],
      [{ uuid: intake, star: 1 }, clinician, 'NOT_FOUND'],
    ] as const) {
      const { body } = await server.api.call('study/star', params, sid);
      expect({ params, type: body.error_type }).toEqual({ params, type: errorType });
    }
    expect(await starOf()).toBe(1);
    await server.api.call('study/star', { uuid: study, star: 0 }, clinician);
    expect(await starOf()).toBe(0);
  });
});
