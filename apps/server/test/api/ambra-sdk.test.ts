import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/**
 * The requests Ambra's public Python SDK (ambra_sdk) makes, shaped as it sends them: its pager
 * posts `page.rows`/`page.number` form-encoded and stops unless the answer's `page.rows` is the
 * size it asked for; `Storage.Image.upload` posts the raw file with no Content-Type; objects are
 * named by Ambra's class names (`object=Study`).
 */
describe.each(DIALECTS)("Ambra's SDK against api/v3 on %s", (dialect) => {
  let server: TestServer;
  let clinician: string;
  let admin: string;
  let account: string;
  let emergency: string;

  /** What `requests.post(url, params={'sid': sid}, data=open(file, 'rb'))` sends: no Content-Type. */
  function rawPost(urlPath: string, body: Buffer): Promise<{ status: number; body: any }> {
    const url = new URL(urlPath, server.url);
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method: 'POST', headers: { 'content-length': String(body.length) } },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (c: Buffer) => chunks.push(c));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }),
          );
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  beforeAll(async () => {
    server = await startTestServer(dialect);
    clinician = await server.api.login('clinician@demo.local');
    admin = await server.api.login('admin@demo.local');
    emergency = await server.api.namespaceOf(clinician, 'Emergency');
    account = await accountIdOf(server.ctx.db, 'Demo Hospital');
  });
  afterAll(() => server?.stop());

  it('echoes the page size the pager asked for in every list', async () => {
    const pager = { 'page.rows': 100, 'page.number': 1 };
    const study = (await server.api.call('study/list', { 'page.rows': 1 }, clinician)).body.studies[0]
      .uuid as string;
    const lists: [string, Record<string, string | number>, string, string][] = [
      ['account/list', {}, 'accounts', clinician],
      ['group/list', {}, 'groups', clinician],
      ['study/list', {}, 'studies', clinician],
      ['tag/list', { object: 'Study' }, 'tags', clinician],
      [
        'customfield/list',
        { account_id: account, 'filter.object.equals': 'Study' },
        'customfields',
        clinician,
      ],
      ['destination/list', { account_id: account }, 'destinations', admin],
      ['dicom/node/list', { account_id: account }, 'nodes', admin],
      ['account/user/list', { uuid: account }, 'users', admin],
      ['link/list', {}, 'links', clinician],
      ['study/share/list', { uuid: study }, 'shares', clinician],
      ['study/send/list', { uuid: study }, 'sends', clinician],
      ['study/push/list', { uuid: study }, 'pushes', clinician],
      ['connection/list', { account_id: account }, 'connections', clinician],
      ['connection/list', { uuid: study }, 'connections', clinician],
      ['user/event/list', {}, 'events', clinician],
      ['user/namespace/list', {}, 'namespaces', clinician],
    ];
    for (const [route, params, field, sid] of lists) {
      const { status, body } = await server.api.call(route, { ...params, ...pager }, sid);
      expect(status, route).toBe(200);
      expect(body.page, route).toMatchObject({ rows: 100, more: 0 });
      expect(Array.isArray(body[field]), route).toBe(true);
    }
  });

  it('pages a short list as asked: page.number moves through it and more says whether another follows', async () => {
    const all = (await server.api.call('group/list', {}, clinician)).body.groups as { uuid: string }[];
    expect(all.length).toBeGreaterThan(1);
    const first = await server.api.call('group/list', { 'page.rows': 1, 'page.number': 1 }, clinician);
    expect(first.body.groups.map((g: { uuid: string }) => g.uuid)).toEqual([all[0]!.uuid]);
    expect(first.body.page).toEqual({ number: 1, rows: 1, more: 1 });
    const last = await server.api.call(
      'group/list',
      { 'page.rows': 1, 'page.number': all.length },
      clinician,
    );
    expect(last.body.groups.map((g: { uuid: string }) => g.uuid)).toEqual([all[all.length - 1]!.uuid]);
    expect(last.body.page).toEqual({ number: all.length, rows: 1, more: 0 });
    const wrong = await server.api.call('account/list', { 'page.rows': 5001 }, clinician);
    expect(wrong.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'page.rows' });
    const namespaces = (await server.api.call('user/namespace/list', {}, clinician)).body.namespaces as {
      namespace_id: string;
    }[];
    const second = await server.api.call(
      'user/namespace/list',
      { 'page.rows': 1, 'page.number': 2 },
      clinician,
    );
    expect(second.body.namespaces).toEqual([namespaces[1]]);
    expect(second.body.page).toEqual({ number: 2, rows: 1, more: namespaces.length > 2 ? 1 : 0 });
    const zero = await server.api.call('study/share/list', { uuid: 'x', 'page.number': 0 }, clinician);
    expect(zero.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'page.number' });
  });

  it('stores a raw DICOM file posted with no Content-Type, and refuses a raw non-DICOM body as such', async () => {
    const bytes = fs.readFileSync(path.join(PYDICOM, 'CT_small.dcm'));
    const url = `/api/v3/storage/namespace/${emergency}/image?sid=${encodeURIComponent(clinician)}`;
    const stored = await rawPost(url, bytes);
    expect(stored.status).toBe(202);
    expect(stored.body).toMatchObject({ status: 'OK', study_uid: expect.any(String) });
    const study = await server.api.call('study/get', { uuid: stored.body.study_uuid }, clinician);
    expect(study.body.image_count).toBeGreaterThanOrEqual(1);

    const text = await rawPost(url, Buffer.from('not a DICOM file at all '.repeat(20)));
    expect(text.status).toBe(412);
    expect(text.body.error_type).toBe('INVALID_DICOM');
  });

  it("takes Ambra's class name for the object a tag belongs to, and refuses other classes", async () => {
    const list = await server.api.call('study/list', { 'page.rows': 1 }, clinician);
    const study = list.body.studies[0].uuid as string;
    const added = await server.api.call(
      'tag/add',
      { object: 'Study', object_id: study, tag: 'sdk-tag' },
      clinician,
    );
    expect(added.body.status).toBe('OK');
    const tags = await server.api.call('tag/list', { object: 'STUDY', 'filter.tag.like': 'sdk-' }, clinician);
    expect(tags.body.tags).toEqual([{ tag: 'sdk-tag' }]);
    const user = await server.api.call(
      'tag/add',
      { object: 'User_account', object_id: study, tag: 'other-tag' },
      clinician,
    );
    expect(user.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'object' });
    const none = await server.api.call('tag/list', { 'filter.tag.like': 'other-' }, clinician);
    expect(none.body.tags).toEqual([]);
    const patient = await server.api.call('tag/list', { object: 'Patient' }, clinician);
    expect(patient.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'object' });
    const removed = await server.api.call(
      'tag/delete',
      { object: 'study', object_id: study, tag: 'sdk-tag' },
      clinician,
    );
    expect(removed.body.status).toBe('OK');
  });
});
