/**
 * Every route that takes a file knows its caller (session or link grant) before it reads the body:
 * an anonymous or expired upload of several MB is refused at once and nothing of it reaches
 * DATA_DIR/tmp (eight anonymous 90 MB reports once held 720 MB there).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer, type TestServer } from '../support/test-server.js';

const SIZE = 8 * 1024 * 1024;
const BOUNDARY = 'inbox-test-boundary';

/** A multipart/form-data body: `fields`, then one `file` part of SIZE bytes (a PDF by its start). */
function formBody(fields: Record<string, string>): Buffer {
  const head = Object.entries(fields)
    .map(([k, v]) => `--${BOUNDARY}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const file = Buffer.alloc(SIZE, 0x20);
  file.write('%PDF-1.4\n');
  return Buffer.concat([
    Buffer.from(
      `${head}--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="a.pdf"\r\ncontent-type: application/pdf\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** A multipart/related body of one application/dicom part of SIZE bytes, as STOW-RS takes. */
function relatedBody(): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\ncontent-type: application/dicom\r\n\r\n`),
    Buffer.alloc(SIZE),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

describe.each(DIALECTS)('uploads before sign-in on %s', (dialect) => {
  let server: TestServer;
  let emergency: string;
  let studyUid: string;
  let studyUuid: string;
  let tmpDir: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '1' });
    const sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
    // Any study will do: none of these calls gets as far as looking it up.
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid'])
      .executeTakeFirstOrThrow();
    studyUid = study.study_uid;
    studyUuid = study.uuid;
    tmpDir = path.join(server.dataDir, 'tmp');
    fs.mkdirSync(tmpDir, { recursive: true });
  });
  afterAll(() => server?.stop());

  /**
   * Sends `body` and answers the status with how long the answer took and every name that
   * appeared in DATA_DIR/tmp meanwhile (inotify sees a file even if it is gone at once).
   */
  async function send(pathName: string, body: Buffer, headers: Record<string, string>) {
    const appeared: string[] = [];
    const watcher = fs.watch(tmpDir, (_event, name) => appeared.push(String(name)));
    const started = Date.now();
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const request = http.request(`${server.url}${pathName}`, {
          method: 'POST',
          headers: { 'content-length': String(body.length), ...headers },
        });
        request.on('response', (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        });
        // The server may close the connection while the rest of the refused body is still on its way.
        request.on('error', (error) => (request.writableFinished ? undefined : reject(error)));
        request.end(body);
      });
      // Give any write still under way time to show.
      await new Promise((r) => setTimeout(r, 200));
      return { status, ms: Date.now() - started, appeared };
    } finally {
      watcher.close();
    }
  }

  const form = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
  const related = { 'content-type': `multipart/related; type="application/dicom"; boundary=${BOUNDARY}` };
  const uploads = (): {
    name: string;
    path: string;
    headers: Record<string, string>;
    body: Record<string, string>;
  }[] => [
    { name: 'study/report/add', path: '/api/v3/study/report/add', headers: form, body: { uuid: studyUuid } },
    { name: 'wrap', path: `/api/v3/storage/namespace/${emergency}/wrap`, headers: form, body: {} },
    { name: 'image', path: `/api/v3/storage/namespace/${emergency}/image`, headers: form, body: {} },
    {
      name: 'attachment',
      path: `/api/v3/storage/study/${emergency}/${studyUid}/attachment`,
      headers: form,
      body: {},
    },
    { name: 'link upload', path: '/api/v3/link/public/upload', headers: form, body: {} },
    { name: 'link wrap', path: '/api/v3/link/public/wrap', headers: form, body: {} },
  ];

  it('refuses an upload without a session at once, writing nothing to DATA_DIR/tmp', async () => {
    for (const upload of uploads()) {
      const answer = await send(upload.path, formBody(upload.body), upload.headers);
      expect([upload.name, answer.status]).toEqual([upload.name, upload.name.startsWith('link') ? 412 : 401]);
      expect([upload.name, answer.appeared]).toEqual([upload.name, []]);
    }
    const stow = await send(`/dicomweb/studies?namespace=${emergency}`, relatedBody(), related);
    expect([stow.status, stow.appeared]).toEqual([401, []]);
  });

  it('refuses a report whose sid is only in its multipart body, or is made up, before reading it', async () => {
    const report = uploads()[0]!;
    const sid = await server.api.login('clinician@demo.local');
    const inBody = await send(report.path, formBody({ ...report.body, sid }), report.headers);
    expect(inBody).toMatchObject({ status: 401, appeared: [] });
    const madeUp = await send(report.path, formBody(report.body), {
      ...report.headers,
      authorization: 'Bearer made-up-sid',
    });
    expect(madeUp).toMatchObject({ status: 401, appeared: [] });
    const inQuery = await send(`${report.path}?sid=made-up-sid`, formBody(report.body), report.headers);
    expect(inQuery).toMatchObject({ status: 401, appeared: [] });
    // Refused before the body: answered well before 8 MB could be stored, read and checked.
    expect(Math.max(inBody.ms, madeUp.ms, inQuery.ms)).toBeLessThan(2_000);
  });
});
