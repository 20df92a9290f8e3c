import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES } from '@imaging-inbox/contract';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { storedFile, tempRoot } from '../support/blob-files.js';

interface StudyRef {
  uuid: string;
  study_uid: string;
  namespace_id: string;
}

const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(32, 1),
]);

describe.each(DIALECTS)('study attachments on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let viewer: string;
  let study: StudyRef;
  let intakeStudy: StudyRef;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const inGroup = (name: string) =>
      server.ctx.db.kysely
        .selectFrom('studies')
        .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
        .select(['studies.uuid', 'studies.study_uid', 'studies.namespace_id'])
        .where('groups.name', '=', name)
        .orderBy('studies.uuid')
        .executeTakeFirstOrThrow();
    study = await inGroup('Emergency');
    intakeStudy = await inGroup('PACS Intake');
  });
  afterAll(() => server?.stop());

  const base = (s: StudyRef) =>
    `${server.url}/api/v3/storage/study/${s.namespace_id}/${s.study_uid}/attachment`;

  async function upload(
    s: StudyRef,
    sid: string,
    name: string,
    bytes: Buffer,
    type = 'application/octet-stream',
  ) {
    const form = new FormData();
    form.append('file', new Blob([bytes], { type }), name);
    const response = await fetch(`${base(s)}?phi_namespace=${s.namespace_id}&sid=${sid}`, {
      method: 'POST',
      body: form,
    });
    return { status: response.status, body: (await response.json()) as any };
  }

  const list = async (sid: string, extra: Record<string, string | number> = {}) =>
    (await server.api.call('study/attachment/list', { uuid: study.uuid, ...extra }, sid)).body;

  const count = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('studies')
          .select('attachment_count')
          .where('uuid', '=', study.uuid)
          .executeTakeFirstOrThrow()
      ).attachment_count,
    );

  it('adds, lists, versions, fetches and deletes attachments, counting and auditing them', async () => {
    const first = await upload(study, clinician, 'report.pdf', PDF, 'application/pdf');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      status: 'OK',
      version: 1,
      filename: 'report.pdf',
      mime: 'application/pdf',
    });
    const second = await upload(study, clinician, 'report.pdf', Buffer.concat([PDF, Buffer.from('% v2\n')]));
    expect(second.body).toMatchObject({ id: first.body.id, version: 2 });
    const photo = await upload(study, clinician, 'Wound photo é.png', PNG);
    expect(photo.status).toBe(200);
    expect(await count()).toBe(2);

    const page = await list(viewer);
    expect(page.page).toMatchObject({ number: 1, total: 2, more: 0 });
    const report = page.attachments.find((a: any) => a.id === first.body.id);
    expect(report).toMatchObject({ version: 2, inline: true, filename: 'report.pdf' });
    expect(report.versions.map((v: any) => v.version)).toEqual([2, 1]);
    expect((await list(viewer, { 'page.rows': 1 })).page).toMatchObject({ more: 1, total: 2 });
    expect((await list(viewer, { 'page.rows': 1, 'page.number': 2 })).attachments).toHaveLength(1);
    // study/get counts attachments too.
    expect((await server.api.call('study/get', { uuid: study.uuid }, viewer)).body.attachment_count).toBe(2);

    // The viewer may read: version 1 as stored, with a safe download header.
    const v1 = await fetch(
      `${base(study)}/${first.body.id}/version/1?phi_namespace=${study.namespace_id}&sid=${viewer}`,
    );
    expect(v1.status).toBe(200);
    expect(Buffer.from(await v1.arrayBuffer())).toEqual(PDF);
    expect(v1.headers.get('content-type')).toBe('application/pdf');
    expect(v1.headers.get('x-content-type-options')).toBe('nosniff');
    expect(v1.headers.get('content-disposition')).toBe(
      `attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`,
    );
    const inline = await fetch(
      `${base(study)}/${photo.body.id}/version/1/photo.png?disposition=inline&sid=${viewer}`,
    );
    expect(inline.headers.get('content-type')).toBe('image/png');
    expect(inline.headers.get('content-disposition')).toBe(
      `inline; filename="Wound photo _.png"; filename*=UTF-8''Wound%20photo%20%C3%A9.png`,
    );
    expect(inline.headers.get('content-security-policy')).toContain("default-src 'none'");

    // The viewer may not delete; the clinician may; the files go when no row uses them.
    const del = (sid: string, id: string, query = '') =>
      fetch(`${base(study)}/${id}?sid=${sid}${query}`, { method: 'DELETE' });
    expect(((await (await del(viewer, first.body.id)).json()) as any).error_type).toBe('NOT_PERMITTED');
    const blobRows = await server.ctx.db.kysely
      .selectFrom('attachments')
      .select('blob_key')
      .where('id', '=', first.body.id)
      .execute();
    expect((await del(clinician, first.body.id)).status).toBe(200);
    expect(blobRows.every((r) => !fs.existsSync(storedFile(server, r.blob_key)))).toBe(true);
    expect(await count()).toBe(1);
    expect(((await (await del(clinician, first.body.id)).json()) as any).error_type).toBe('NOT_FOUND');

    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'detail'])
      .where('object_type', '=', 'attachment')
      .where('object_id', '=', study.uuid)
      .execute();
    const actions = audit.map((a) => a.action);
    expect(actions.filter((a) => a === 'CREATE')).toHaveLength(3);
    expect(actions).toContain('ATTACHMENT_VIEW');
    expect(actions).toContain('ATTACHMENT_LIST');
    expect(actions).toContain('DELETE');
  });

  it('refuses bad input and other groups with clear errors, storing nothing', async () => {
    const before = await server.ctx.db.kysely
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const cases: [string, Promise<{ status: number; body: any }>, number, string][] = [
      ['viewer upload', upload(study, viewer, 'a.pdf', PDF), 412, 'NOT_PERMITTED'],
      ['other group', upload(intakeStudy, clinician, 'a.pdf', PDF), 412, 'NOT_FOUND'],
      ['empty', upload(study, clinician, 'empty.pdf', Buffer.alloc(0)), 412, 'FILE_CONTENT_EMPTY'],
      ['wrong type', upload(study, clinician, 'run.exe', Buffer.from('MZ')), 412, 'INVALID_FIELD'],
      ['html as txt', upload(study, clinician, 'x.txt', Buffer.from('<html><script>')), 412, 'INVALID_FIELD'],
      ['renamed', upload(study, clinician, 'fake.pdf', PNG), 412, 'INVALID_FIELD'],
      [
        'too large',
        upload(study, clinician, 'big.pdf', Buffer.concat([PDF, Buffer.alloc(MAX_ATTACHMENT_BYTES)])),
        413,
        'FILE_TOO_LARGE',
      ],
      ['no session', upload(study, '', 'a.pdf', PDF), 401, 'EXPIRED'],
    ];
    for (const [name, request, status, errorType] of cases) {
      const { status: got, body } = await request;
      expect({ name, got, type: body.error_type }).toEqual({ name, got: status, type: errorType });
    }
    const listAnswer = await server.api.call('study/attachment/list', { uuid: intakeStudy.uuid }, clinician);
    expect(listAnswer.body.error_type).toBe('NOT_FOUND');
    const unknown = await fetch(`${base(study)}/no-such-id/version/1?sid=${clinician}`);
    expect(((await unknown.json()) as any).error_type).toBe('NOT_FOUND');

    // A study locked by someone else takes no attachment.
    const admin = await server.api.login('admin@demo.local');
    expect((await server.api.call('study/lock', { uuid: study.uuid }, admin)).status).toBe(200);
    expect((await upload(study, clinician, 'a.pdf', PDF)).body.error_type).toBe('LOCKED');
    await server.api.call('study/unlock', { uuid: study.uuid }, admin);

    const after = await server.ctx.db.kysely
      .selectFrom('attachments')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // No temp files left behind.
    expect(fs.readdirSync(tempRoot(server))).toEqual([]);
  });
});
