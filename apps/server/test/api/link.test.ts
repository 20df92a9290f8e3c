import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import type { Answer, TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const NOW = new Date('2026-06-01T00:00:00Z');

describe.each(DIALECTS)('request-study links on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  let intake: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    const admin = await server.api.login('admin@demo.local');
    intake = await server.api.namespaceOf(admin, 'PACS Intake');
  });
  afterAll(() => server?.stop());

  const addLink = (params: Record<string, string | number> = {}, caller = sid) =>
    server.api.call(
      'link/add',
      {
        namespace_id: emergency,
        action: 'STUDY_UPLOAD',
        email: 'sender@hospital.example',
        max_hits: 3,
        minutes_alive: 60,
        message: 'CT of the chest, please',
        notify: 1,
        ...params,
      },
      caller,
    );

  /** The token of the link mailed to `to`, read from the outbox the way a recipient reads mail. */
  const mailedToken = async (to: string): Promise<string> => {
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('to_address', '=', to)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const match = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body);
    return match![1]!;
  };

  const createLink = async (params: Record<string, string | number> = {}) => {
    const email = String(
      params['email'] ?? `sender-${Math.random().toString(36).slice(2, 8)}@hospital.example`,
    );
    const added = await addLink({ ...params, email });
    expect(added.status).toBe(200);
    return { uuid: added.body.uuid as string, token: await mailedToken(email), email };
  };

  const info = (token: string) => server.api.get('link/public/info', { token });
  const unlock = (token: string, password?: string) =>
    server.api.call('link/public/unlock', password === undefined ? { token } : { token, password });
  const upload = async (grant: string, bytes: Uint8Array): Promise<Answer> => {
    const response = await fetch(`${server.url}/api/v3/link/public/upload`, {
      method: 'POST',
      headers: { 'content-type': 'application/dicom', 'x-link-grant': grant },
      body: bytes,
    });
    return { status: response.status, body: await response.json() };
  };

  it('creates a link for a clinician, mails it, and answers uuid and url', async () => {
    const added = await addLink({ email: 'first@hospital.example' });
    expect(added.status).toBe(200);
    expect(added.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    const token = await mailedToken('first@hospital.example');
    expect(added.body.url).toBe(`${server.ctx.config.publicUrl}/link/${token}`);
    // 256-bit tokens, stored only as a hash.
    expect(token.length).toBeGreaterThanOrEqual(43);
    const row = await server.ctx.db.kysely
      .selectFrom('links')
      .selectAll()
      .where('uuid', '=', added.body.uuid)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).not.toContain(token);
    expect(row).toMatchObject({ action: 'STUDY_UPLOAD', max_hits: 3, minutes_alive: 60, notify_on_use: 1 });
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', added.body.uuid)
      .execute();
    expect(events.map((e) => e.action)).toEqual(['LINK_CREATE']);
  });

  it('refuses a viewer without link_edit, a foreign namespace, and bad counts or fields', async () => {
    const viewer = await server.api.login('viewer@demo.local');
    expect((await addLink({}, viewer)).body.error_type).toBe('NOT_PERMITTED');
    expect((await addLink({ namespace_id: intake })).body.error_type).toBe('NOT_FOUND');
    for (const bad of [0, -1, 1.5, 'abc', 2147483648]) {
      const hits = await addLink({ max_hits: bad });
      expect(hits.status).toBe(412);
      expect(hits.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'max_hits' });
      expect((await addLink({ minutes_alive: bad })).body.error_subtype).toBe('minutes_alive');
    }
    expect((await addLink({ max_hits: '' })).body.error_type).toBe('MISSING_FIELDS');
    expect((await addLink({ max_hits: 2147483647 })).status).toBe(200);
    expect((await addLink({ email: 'not-an-email' })).body.error_subtype).toBe('email');
    expect((await addLink({ action: 'OTHER' })).body.error_subtype).toBe('action');
  });

  it('lets the outside party read, unlock with the password and upload into the group', async () => {
    const { token, uuid } = await createLink({ password: 'open-sesame-42' });
    const read = await info(token);
    expect(read.body).toMatchObject({
      status: 'OK',
      namespace_name: 'Emergency',
      requester_name: expect.stringContaining('Clinician'),
      description: 'CT of the chest, please',
      needs_password: true,
    });
    expect((await unlock(token)).body.error_type).toBe('BAD_PASSWORD');
    const opened = await unlock(token, 'open-sesame-42');
    expect(opened.status).toBe(200);
    const [spec] = generateStudySpecs(1, 9001, { now: NOW });
    const files = writeStudyFiles(spec!).slice(0, 2);
    for (const file of files) {
      const answer = await upload(opened.body.grant, file.bytes);
      expect(answer.status).toBe(202);
      expect(answer.body).toMatchObject({ study_uid: spec!.studyInstanceUid, duplicate: false });
    }
    const list = await server.api.call(
      'study/list',
      { 'filter.study_uid.equals': spec!.studyInstanceUid, 'filter.phi_namespace.equals': emergency },
      sid,
    );
    expect(list.body.studies).toHaveLength(1);
    expect(list.body.studies[0]).toMatchObject({ image_count: 2, source_ae_title: 'LINK' });
    // Two files, one upload session: one hit; the requester was told once.
    const row = await server.ctx.db.kysely
      .selectFrom('links')
      .select('hits')
      .where('uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    expect(row.hits).toBe(1);
    const notices = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('subject')
      .where('to_address', '=', 'clinician@demo.local')
      .execute();
    expect(notices.filter((n) => n.subject.includes('was used'))).toHaveLength(1);
  });

  it('counts wrong passwords and locks the link after 5 within the window', async () => {
    const { token } = await createLink({ password: 'right-password-1' });
    for (let i = 0; i < 5; i++)
      expect((await unlock(token, `wrong-${i}`)).body.error_type).toBe('BAD_PASSWORD');
    const locked = await unlock(token, 'right-password-1');
    expect(locked.status).toBe(429);
    expect(locked.body.error_type).toBe('RATE_LIMITED');
  });

  it('counts wrong passwords sent at once before hashing them: 5 of 12 are checked', async () => {
    const { token } = await createLink({ password: 'right-password-2' });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => unlock(token, `wrong-${i}`)));
    const types = answers.map((a) => a.body.error_type);
    expect(types.filter((t) => t === 'BAD_PASSWORD')).toHaveLength(5);
    expect(types.filter((t) => t === 'RATE_LIMITED')).toHaveLength(7);
    expect((await unlock(token, 'right-password-2')).body.error_type).toBe('RATE_LIMITED');
  });

  it('enforces max_hits per upload session', async () => {
    const { token } = await createLink({ max_hits: 1 });
    const first = await unlock(token);
    expect(first.status).toBe(200);
    expect((await unlock(token)).body.error_type).toBe('NO_LINK_ERROR');
    expect((await info(token)).body.error_type).toBe('NO_LINK_ERROR');
    // The open session keeps working until its grant ends.
    const [spec] = generateStudySpecs(1, 9002, { now: NOW });
    expect((await upload(first.body.grant, writeStudyFiles(spec!)[0]!.bytes)).status).toBe(202);
  });

  it('refuses expired and revoked links, and their open grants, with one identical answer', async () => {
    const expired = await createLink();
    const expiredGrant = (await unlock(expired.token)).body.grant as string;
    await server.ctx.db.kysely
      .updateTable('links')
      .set({ expires: Date.now() - 1000 })
      .where('uuid', '=', expired.uuid)
      .execute();
    const revoked = await createLink();
    const revokedGrant = (await unlock(revoked.token)).body.grant as string;
    expect((await server.api.call('link/delete', { uuid: revoked.uuid }, sid)).status).toBe(200);

    const unknown = await info('x'.repeat(43));
    expect(unknown.status).toBe(412);
    for (const token of [expired.token, revoked.token]) {
      const answer = await info(token);
      expect(answer).toEqual(unknown);
      expect(await unlock(token)).toEqual(unknown);
    }
    const [spec] = generateStudySpecs(1, 9003, { now: NOW });
    const bytes = writeStudyFiles(spec!)[0]!.bytes;
    for (const grant of [expiredGrant, revokedGrant, 'forged-grant']) {
      expect(await upload(grant, bytes)).toEqual(unknown);
    }
  });

  it('lists pending links without their url, sorted, only where the caller has link_edit', async () => {
    const a = await createLink({ email: 'aaa@hospital.example', message: 'first' });
    const z = await createLink({ email: 'zzz@hospital.example', message: 'second' });
    const list = async (sortBy: string, caller = sid) =>
      (
        await server.api.call(
          'link/list',
          { 'filter.namespace_id.equals': emergency, sort_by: sortBy },
          caller,
        )
      ).body;
    const byEmail = (await list('email-asc')).links as { uuid: string; email: string }[];
    expect(byEmail.map((l) => l.email)).toEqual([...byEmail.map((l) => l.email)].sort());
    const row = byEmail.find((l) => l.uuid === a.uuid);
    expect(row).toMatchObject({
      email: 'aaa@hospital.example',
      description: 'first',
      message: 'first',
      minutes_alive: 60,
      namespace_name: 'Emergency',
      url: null,
    });
    const desc = ((await list('created-desc')).links as { uuid: string }[]).map((l) => l.uuid);
    expect(desc.indexOf(z.uuid)).toBeLessThan(desc.indexOf(a.uuid));
    expect((await list('name-asc')).error_type).toBe('INVALID_FIELD');
    const viewer = await server.api.login('viewer@demo.local');
    expect((await list('created-desc', viewer)).links).toEqual([]);
    // Revoked links drop out; revoking is refused for someone who cannot edit links there.
    expect((await server.api.call('link/delete', { uuid: a.uuid }, viewer)).body.error_type).toBe(
      'NOT_FOUND',
    );
    await server.api.call('link/delete', { uuid: a.uuid }, sid);
    const after = ((await list('created-desc')).links as { uuid: string }[]).map((l) => l.uuid);
    expect(after).not.toContain(a.uuid);
    expect(after).toContain(z.uuid);
  });

  it('keeps the mobile phone and share description, lists them, and gives the description to what the link uploads', async () => {
    const { token, uuid } = await createLink({
      mobile_phone: '+44 (20) 7946-0958',
      share_description: 'Knee MRI for the orthopaedic referral',
    });
    const listed = (
      await server.api.call('link/list', { 'filter.namespace_id.equals': emergency }, sid)
    ).body.links.find((l: { uuid: string }) => l.uuid === uuid);
    expect(listed).toMatchObject({
      mobile_phone: '+442079460958',
      share_description: 'Knee MRI for the orthopaedic referral',
    });
    const grant = (await unlock(token)).body.grant as string;
    const [direct, resumable] = generateStudySpecs(2, 9101, { now: NOW });
    const directFile = writeStudyFiles(direct!)[0]!;
    expect((await upload(grant, directFile.bytes)).status).toBe(202);
    // The resumable upload session of the link page takes the same way.
    const sessionFile = writeStudyFiles(resumable!)[0]!;
    const session = async (call: string, params: Record<string, string | number>, body?: Uint8Array) => {
      const query = new URLSearchParams(
        Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
      );
      const response = await fetch(
        `${server.url}/api/v3/link/public/upload/session/${call}?${query.toString()}`,
        {
          method: 'POST',
          headers: {
            'x-link-grant': grant,
            ...(body ? { 'content-type': 'application/octet-stream' } : {}),
          },
          ...(body ? { body } : {}),
        },
      );
      return (await response.json()) as Record<string, unknown>;
    };
    const created = await session('create', { size: sessionFile.bytes.length });
    const id = created['id'] as string;
    await session('chunk', { id, offset: 0 }, sessionFile.bytes);
    expect(await session('complete', { id })).toMatchObject({ study_uid: resumable!.studyInstanceUid });
    for (const spec of [direct!, resumable!]) {
      const study = (
        await server.api.call('study/list', { 'filter.study_uid.equals': spec.studyInstanceUid }, sid)
      ).body.studies[0];
      expect(study).toMatchObject({ share_message: 'Knee MRI for the orthopaedic referral' });
    }
  });

  it('refuses a mobile phone that is not international and a share description too long; no link is made', async () => {
    const count = async () =>
      Number(
        (
          await server.ctx.db.kysely
            .selectFrom('links')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    for (const phone of ['020 7946 0958', '+0123', 'call me']) {
      const refused = await addLink({ mobile_phone: phone });
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'mobile_phone' });
    }
    const long = await addLink({ share_description: 'x'.repeat(1025) });
    expect(long.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'share_description' });
    expect(await count()).toBe(before);
  });
});
