import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, demoWorld } from '../support/demo-world.js';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace } from '../support/netns.js';
import type { Forward } from '../support/netns-forward.js';
import { forwardIntoNamespace } from '../support/netns-forward.js';
import type { TestPki } from '../support/tls-certs.js';
import { makeTestPki } from '../support/tls-certs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** dcmtk's storescp in TLS mode inside the namespace: it asks for our client certificate. */
const PACS_PORT = 2762;

function datasetOf(file: Buffer): Buffer {
  const groupLength = file.readUInt32LE(132 + 8);
  return file.subarray(132 + 12 + groupLength);
}
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe.each(DIALECTS)('Destinations over DICOM TLS (dcmtk storescp +tls) on %s', (dialect) => {
  let server: TestServer;
  let pki: TestPki;
  let ns: NetworkNamespace;
  let toPacs: Forward;
  let received: string;
  let admin: string;
  let clinician: string;
  let account: string;
  let secure: string;
  const log: string[] = [];

  beforeAll(async () => {
    pki = await makeTestPki();
    server = await startTestServer(dialect, {}, (line) => log.push(line));
    const world = await demoWorld(server, ['admin', 'clinician']);
    admin = world.sid.admin;
    clinician = world.sid.clinician;
    account = world.account;
    ns = await createNetworkNamespace();
    received = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-tls-pacs-'));
    ns.start(
      'storescp',
      [
        '+tls',
        pki.key('server'),
        pki.pem('server'),
        '+cf',
        pki.pem('ca'),
        '-aet',
        'TLS_PACS',
        '-od',
        received,
        String(PACS_PORT),
      ],
      { TCP_NODELAY: '1' },
    );
    toPacs = await forwardIntoNamespace(ns, PACS_PORT);
    secure = await addDestination(server.api, admin, account, {
      name: 'TLS PACS',
      aetitle: 'TLS_PACS',
      port: toPacs.port,
      can_push: 1,
      tls: 1,
      tls_ca: pki.text('ca.pem'),
      tls_cert: pki.text('client.pem'),
      tls_key: pki.text('client.key'),
    });
  }, 120_000);

  afterAll(async () => {
    await toPacs?.close();
    await ns?.stop();
    await server?.stop();
    pki?.remove();
    if (received) fs.rmSync(received, { recursive: true, force: true });
  });

  const echo = async (uuid: string) => (await server.api.call('destination/echo', { uuid }, admin)).body;
  const count = async () =>
    (await server.ctx.db.kysely.selectFrom('destinations').select('uuid').execute()).length;

  it('answers C-ECHO over TLS with our client certificate (the destination test button)', async () => {
    // storescp may still be starting: the first echo can find nothing listening yet.
    const result = await until(
      () => echo(secure),
      (body) => body.ok === true,
      30_000,
      300,
    );
    expect(result).toMatchObject({ status: 'OK', ok: true, reason: null });
  });

  it('answers the certificates to the account admins only, and the private key to nobody', async () => {
    const got = await server.api.call('destination/get', { uuid: secure }, admin);
    expect(got.body).toMatchObject({ tls: 1, tls_key_set: 1 });
    expect(got.body.tls_ca).toContain('BEGIN CERTIFICATE');
    expect(got.body.tls_cert).toContain('BEGIN CERTIFICATE');
    expect(JSON.stringify(got.body)).not.toContain('PRIVATE KEY');
    const listed = await server.api.call('destination/list', { account_id: account }, admin);
    expect(JSON.stringify(listed.body)).not.toContain('PRIVATE KEY');
    // A member who may push sees that TLS is on, not the certificate texts.
    const asMember = await server.api.call('destination/get', { uuid: secure }, clinician);
    if (asMember.status === 200) {
      expect(asMember.body).toMatchObject({ tls: 1, tls_ca: null, tls_cert: null, tls_key_set: 1 });
    } else {
      expect(asMember.body.error_type).toBe('NOT_FOUND');
    }
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', secure)
      .execute();
    expect(JSON.stringify(audit)).not.toContain('PRIVATE KEY');
  });

  it('pushes a study over TLS: every dataset lands byte-identical', async () => {
    const [study] = (await server.api.call('study/list', { 'page.rows': 1 }, admin)).body.studies as {
      uuid: string;
      image_count: number;
    }[];
    const started = await server.api.call('study/push', { uuid: study!.uuid, destination_id: secure }, admin);
    expect(started.body.status).toBe('OK');
    const attempt = await until(
      async () => (await server.api.call('study/push/list', { uuid: study!.uuid }, admin)).body.pushes[0],
      (a: { status: string }) => !['I', 'N'].includes(a.status),
    );
    expect(attempt).toMatchObject({ status: 'S', images_sent: study!.image_count });
    const instances = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', study!.uuid)
      .execute();
    const expected = (
      await Promise.all(
        instances.map(async (i) => sha(datasetOf(await server.ctx.services.blobs.read(i.blob_key)))),
      )
    ).sort();
    const got = fs
      .readdirSync(received)
      .map((f) => sha(datasetOf(fs.readFileSync(path.join(received, f)))))
      .sort();
    expect(got).toEqual(expected);
  });

  it('gives no DICOM answer when the PACS certificate is not signed by the destination CA, and logs why', async () => {
    const wrongCa = await addDestination(server.api, admin, account, {
      name: 'TLS PACS, wrong CA',
      aetitle: 'TLS_PACS2',
      port: toPacs.port,
      tls: 1,
      tls_ca: pki.text('otherca.pem'),
      tls_cert: pki.text('client.pem'),
      tls_key: pki.text('client.key'),
    });
    const before = log.length;
    expect(await echo(wrongCa)).toMatchObject({ ok: false, reason: 'no DICOM answer' });
    expect(log.slice(before).join('\n')).toMatch(/certificate/i);
  });

  it('gives no DICOM answer without TLS to the TLS port, or without the client certificate storescp asks for', async () => {
    const plain = await addDestination(server.api, admin, account, {
      name: 'TLS PACS in clear',
      aetitle: 'TLS_PACS3',
      port: toPacs.port,
    });
    expect(await echo(plain)).toMatchObject({ ok: false, reason: 'no DICOM answer' });
    const set = await server.api.call(
      'destination/set',
      { uuid: plain, tls: '1', tls_ca: pki.text('ca.pem') },
      admin,
    );
    expect(set.body).toMatchObject({ tls: 1, tls_key_set: 0, tls_cert: null });
    expect(await echo(plain)).toMatchObject({ ok: false });
    const withCert = await server.api.call(
      'destination/set',
      { uuid: plain, tls_cert: pki.text('client.pem'), tls_key: pki.text('client.key') },
      admin,
    );
    expect(withCert.body).toMatchObject({ tls: 1, tls_key_set: 1 });
    expect(await echo(plain)).toMatchObject({ ok: true });
    // Cleared again ('' removes both), the destination is back to no client certificate.
    const cleared = await server.api.call(
      'destination/set',
      { uuid: plain, tls_cert: '', tls_key: '' },
      admin,
    );
    expect(cleared.body).toMatchObject({ tls_key_set: 0, tls_cert: null });
  });

  it('refuses TLS settings that cannot work, and changes nothing', async () => {
    const before = await count();
    const base = { account_id: account, name: 'Bad', aetitle: 'BAD_TLS', address: '127.0.0.1', port: '104' };
    const cases: [Record<string, string>, string][] = [
      [{ tls: '2' }, 'tls'],
      [{ tls: '1', tls_ca: 'not a certificate' }, 'tls_ca'],
      [{ tls: '1', tls_ca: pki.text('client.key') }, 'tls_ca'],
      [{ tls: '1', tls_cert: pki.text('client.pem') }, 'tls_key'],
      [{ tls: '1', tls_key: pki.text('client.key') }, 'tls_cert'],
      [{ tls: '1', tls_cert: pki.text('client.pem'), tls_key: pki.text('stranger.key') }, 'tls_key'],
      [{ tls: '1', tls_cert: pki.text('client.pem'), tls_key: 'garbage' }, 'tls_key'],
      [{ tls: '1', tls_ca: 'x'.repeat(70_000) }, 'tls_ca'],
    ];
    for (const [fields, field] of cases) {
      const answer = await server.api.call('destination/add', { ...base, ...fields }, admin);
      expect(answer.status, JSON.stringify(fields).slice(0, 80)).toBe(412);
      expect(JSON.stringify(answer.body)).toContain(field);
    }
    expect(await count()).toBe(before);
    // On set: the certificate stays, so clearing its key alone is refused.
    const set = await server.api.call('destination/set', { uuid: secure, tls_key: '' }, admin);
    expect(set.status).toBe(412);
    expect((await server.api.call('destination/get', { uuid: secure }, admin)).body.tls_key_set).toBe(1);
  });
});
