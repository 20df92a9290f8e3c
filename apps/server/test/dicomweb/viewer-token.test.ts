import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

interface StudyRef {
  uuid: string;
  study_uid: string;
  namespace_id: string;
}

describe.each(DIALECTS)('viewer tokens on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let study: StudyRef;
  let sibling: StudyRef;
  let foreign: StudyRef;

  const dicomweb = (url: string, token: string) =>
    fetch(`${server.url}/dicomweb${url}`, { headers: { authorization: `Bearer ${token}` } });
  const issue = (params: Record<string, string>, session = sid) =>
    server.api.call('study/viewer/token', params, session);

  async function studiesOf(group: string): Promise<StudyRef[]> {
    return server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id'])
      .where('groups.name', '=', group)
      .where('studies.deleted', 'is', null)
      .orderBy('studies.created')
      .execute();
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    [study, sibling] = (await studiesOf('Emergency')) as [StudyRef, StudyRef];
    [foreign] = (await studiesOf('PACS Intake')) as [StudyRef];
  });
  afterAll(() => server?.stop());

  it('issues a prefixed 256-bit token for a visible study, stored only as its hash', async () => {
    const before = Date.now();
    const { status, body } = await issue({ uuid: study.uuid });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      status: 'OK',
      storage_namespace: study.namespace_id,
      phi_namespace: study.namespace_id,
      study_uid: study.study_uid,
    });
    expect(body.token).toMatch(/^vt_[A-Za-z0-9_-]{43}$/);
    expect(body.expires).toBeGreaterThanOrEqual(before + 15 * 60_000);
    expect(body.expires).toBeLessThanOrEqual(Date.now() + 15 * 60_000);

    const rows = await server.ctx.db.kysely.selectFrom('viewer_tokens').selectAll().execute();
    const hash = createHash('sha256').update(body.token).digest('hex');
    expect(rows.map((r) => r.token_hash)).toContain(hash);
    expect(JSON.stringify(rows)).not.toContain(body.token);
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .execute();
    expect(audit.some((a) => a.action === 'VIEWER_TOKEN')).toBe(true);
    expect(JSON.stringify(audit)).not.toContain(body.token);
  });

  it('names the study by storage namespace and study UID too', async () => {
    const { status, body } = await issue({
      storage_namespace: study.namespace_id,
      study_uid: study.study_uid,
      phi_namespace: study.namespace_id,
    });
    expect(status).toBe(200);
    expect(body.study_uid).toBe(study.study_uid);
  });

  it('refuses studies the caller cannot view, and incomplete calls, as api/v3 does', async () => {
    const hidden = await issue({ uuid: foreign.uuid });
    expect(hidden.status).toBe(412);
    expect(hidden.body.error_type).toBe('NOT_FOUND');
    const byUid = await issue({ storage_namespace: foreign.namespace_id, study_uid: foreign.study_uid });
    expect(byUid.body.error_type).toBe('NOT_FOUND');
    const wrongPlace = await issue({ storage_namespace: sibling.namespace_id, study_uid: 'nope' });
    expect(wrongPlace.body.error_type).toBe('NOT_FOUND');
    expect((await issue({ study_uid: study.study_uid })).body.error_type).toBe('MISSING_FIELDS');
    expect((await issue({}, 'not-a-session')).status).toBe(401);
  });

  it('opens its own study over DICOMweb, by header or query parameter, and nothing else', async () => {
    const { body } = await issue({ uuid: study.uuid });
    const token = body.token as string;
    const series = await dicomweb(`/studies/${study.study_uid}/series`, token);
    expect(series.status).toBe(200);
    const list = (await series.json()) as Record<string, { Value: string[] }>[];
    expect(list.length).toBeGreaterThan(0);
    const seriesUid = list[0]!['0020000E']!.Value[0]!;
    const query = await fetch(
      `${server.url}/dicomweb/studies/${study.study_uid}/series/${seriesUid}/thumbnail?token=${token}`,
    );
    expect(query.status).toBe(200);
    expect(query.headers.get('content-type')).toBe('image/png');
    expect((await dicomweb(`/studies/${study.study_uid}/metadata`, token)).status).toBe(200);

    // Another study the same user may view is simply not there for this token.
    expect((await dicomweb(`/studies/${sibling.study_uid}/series`, token)).status).toBe(404);
    expect((await dicomweb(`/studies/${sibling.study_uid}/metadata`, token)).status).toBe(404);
    const found = (await (await dicomweb('/studies?limit=100', token)).json()) as Record<
      string,
      { Value: string[] }
    >[];
    expect(found.map((s) => s['0020000D']!.Value[0])).toEqual([study.study_uid]);
    const other = await dicomweb(`/studies?StudyInstanceUID=${sibling.study_uid}`, token);
    expect(await other.json()).toEqual([]);

    // A viewer token is not a session: api/v3 refuses it.
    expect((await server.api.call('study/list', {}, token)).status).toBe(401);

    const views = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['user_id', 'detail'])
      .where('action', '=', 'STUDY_VIEW')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(views.some((v) => v.detail?.includes('wado-rs metadata'))).toBe(true);
    expect(JSON.stringify(views)).not.toContain(token);
  });

  it('answers 401 once expired, unknown, or when its session has ended', async () => {
    const { body } = await issue({ uuid: study.uuid });
    const token = body.token as string;
    const url = `/studies/${study.study_uid}/series`;
    await server.ctx.db.kysely
      .updateTable('viewer_tokens')
      .set({ expires: Date.now() - 1 })
      .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
      .execute();
    const expired = await dicomweb(url, token);
    expect(expired.status).toBe(401);
    expect(((await expired.json()) as { error_type: string }).error_type).toBe('EXPIRED');
    expect((await dicomweb(url, 'vt_made-up')).status).toBe(401);

    const otherSid = await server.api.login('clinician@demo.local');
    const live = (await issue({ uuid: study.uuid }, otherSid)).body.token as string;
    expect((await dicomweb(url, live)).status).toBe(200);
    expect((await server.api.call('session/logout', {}, otherSid)).status).toBe(200);
    expect((await dicomweb(url, live)).status).toBe(401);
  });
});
