import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/main.js';
import { startOnDataDir } from '../support/data-dir-server.js';
import { ApiClient, createPgDatabase, DEMO_PASSWORD, DIALECTS } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * IHE ATNA: every audit event also leaves as a DICOM Audit Message (PS3.15 A.5) in an RFC 5424
 * syslog message, octet-counted over TLS (RFC 5425), to a collector this test runs (node:tls with
 * an openssl-made CA). Each message is checked for its framing, validated with xmllint against the
 * DICOM audit message schema (fixtures/dicom-audit-message.rng), and read for its EventID, user and
 * objects; then the collector is stopped, events are made (and the server restarted), and once the
 * collector is back every queued event arrives, in order, none lost.
 */

const run = promisify(execFile);
const SAMPLES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const SCHEMA = path.resolve(import.meta.dirname, 'fixtures/dicom-audit-message.rng');

interface Received {
  header: string[];
  xml: string;
  /** The message parsed back: what the assertions read. */
  event: {
    id: string;
    types: string[];
    action: string;
    outcome: string;
    auditEventId: number;
    account: string | undefined;
    requestor: string | undefined;
    requestorAddress: string | undefined;
    patient: { id: string; name: string } | undefined;
    studyUid: string | undefined;
    siteId: string | undefined;
  };
}

/** A syslog-over-TLS collector: octet-counted frames, each split into header and XML. */
class Collector {
  readonly messages: Received[] = [];
  readonly framingErrors: string[] = [];
  private server: tls.Server | undefined;
  private readonly sockets = new Set<net.Socket>();

  constructor(private readonly options: { key: Buffer; cert: Buffer }) {}

  async start(port = 0): Promise<number> {
    const server = tls.createServer(this.options, (socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => {});
      let buffered = Buffer.alloc(0);
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        for (;;) {
          const space = buffered.indexOf(0x20);
          if (space < 0) return;
          const lengthText = buffered.subarray(0, space).toString('ascii');
          if (!/^[1-9][0-9]{0,8}$/.test(lengthText)) {
            this.framingErrors.push(`bad MSG-LEN ${JSON.stringify(lengthText.slice(0, 20))}`);
            socket.destroy();
            return;
          }
          const length = Number(lengthText);
          if (buffered.length < space + 1 + length) return;
          const message = buffered.subarray(space + 1, space + 1 + length);
          buffered = buffered.subarray(space + 1 + length);
          this.messages.push(parseSyslog(message));
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.server = server;
    return (server.address() as net.AddressInfo).port;
  }

  /** Stops listening and cuts every connection: the collector is down. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => server?.close(() => resolve()) ?? resolve());
  }
}

/** RFC 5424: `<PRI>VERSION SP TIMESTAMP SP HOSTNAME SP APP-NAME SP PROCID SP MSGID SP SD SP MSG`. */
function parseSyslog(message: Buffer): Received {
  const text = message.toString('utf8');
  const fields: string[] = [];
  let rest = text;
  for (let i = 0; i < 7; i++) {
    const space = rest.indexOf(' ');
    fields.push(rest.slice(0, space));
    rest = rest.slice(space + 1);
  }
  expect(rest.startsWith('\uFEFF')).toBe(true);
  const xml = rest.slice(1);
  return { header: fields, xml, event: readEvent(xml) };
}

const attr = (xml: string, element: string, name: string): string | undefined =>
  new RegExp(`<${element}\\b[^>]*\\b${name}="([^"]*)"`).exec(xml)?.[1];

function readEvent(xml: string): Received['event'] {
  const identification = /<EventIdentification\b[\s\S]*?<\/EventIdentification>/.exec(xml)![0];
  const details = new Map(
    [...xml.matchAll(/<ParticipantObjectDetail type="([^"]*)" value="([^"]*)"\/>/g)].map((m) => [
      m[1]!,
      Buffer.from(m[2]!, 'base64').toString('utf8'),
    ]),
  );
  const requestor = /<ActiveParticipant\b(?=[^>]*UserIsRequestor="true")[^>]*>/.exec(xml)?.[0] ?? '';
  const patient =
    /<ParticipantObjectIdentification ParticipantObjectID="([^"]*)" ParticipantObjectTypeCode="1" ParticipantObjectTypeCodeRole="1">[\s\S]*?<ParticipantObjectName>([^<]*)</.exec(
      xml,
    );
  const study =
    /<ParticipantObjectIdentification ParticipantObjectID="([^"]*)" ParticipantObjectTypeCode="2" ParticipantObjectTypeCodeRole="3">/.exec(
      xml,
    );
  return {
    id: attr(identification, 'EventID', 'csd-code')!,
    types: [...identification.matchAll(/<EventTypeCode csd-code="([^"]*)"/g)].map((m) => m[1]!),
    action: attr(identification, 'EventIdentification', 'EventActionCode')!,
    outcome: attr(identification, 'EventIdentification', 'EventOutcomeIndicator')!,
    auditEventId: Number(details.get('AuditEventID')),
    account: details.get('Account'),
    requestor: /UserID="([^"]*)"/.exec(requestor)?.[1],
    requestorAddress: /NetworkAccessPointID="([^"]*)"/.exec(requestor)?.[1],
    patient: patient ? { id: patient[1]!, name: patient[2]! } : undefined,
    studyUid: study?.[1],
    siteId: attr(xml, 'AuditSourceIdentification', 'AuditEnterpriseSiteID'),
  };
}

/** xmllint's verdict on each message against the DICOM audit message schema (one run for many). */
async function validate(messages: Received[], dir: string): Promise<void> {
  const files = messages.map((m, i) => {
    const file = path.join(dir, `message-${i}.xml`);
    fs.writeFileSync(file, m.xml);
    return file;
  });
  for (let i = 0; i < files.length; i += 50) {
    const { stderr } = await run('xmllint', ['--noout', '--relaxng', SCHEMA, ...files.slice(i, i + 50)]);
    expect(
      stderr
        .trim()
        .split('\n')
        .filter((line) => !line.endsWith(' validates')),
    ).toEqual([]);
  }
}

/** A CA and a collector certificate for 127.0.0.1, made with openssl. */
function makeCertificates(dir: string) {
  const at = (file: string) => path.join(dir, file);
  const ssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  ssl([
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('ca.key'),
    '-out',
    at('ca.pem'),
    '-days',
    '2',
    '-subj',
    '/CN=Test audit CA',
  ]);
  ssl([
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    at('collector.key'),
    '-out',
    at('collector.csr'),
    '-subj',
    '/CN=collector',
  ]);
  fs.writeFileSync(at('collector.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  ssl([
    'x509',
    '-req',
    '-in',
    at('collector.csr'),
    '-CA',
    at('ca.pem'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-out',
    at('collector.pem'),
    '-days',
    '2',
    '-extfile',
    at('collector.ext'),
  ]);
  return {
    ca: at('ca.pem'),
    key: fs.readFileSync(at('collector.key')),
    cert: fs.readFileSync(at('collector.pem')),
  };
}

describe.each(DIALECTS)('audit events to a syslog collector over TLS (IHE ATNA) on %s', (dialect) => {
  let work: string;
  let dataDir: string;
  let databaseUrl: string | undefined;
  let server: RunningServer | undefined;
  let api: ApiClient;
  let collector: Collector;
  let port: number;
  let env: Record<string, string>;
  let admin: string;
  let partner: string;
  const studies: Record<
    'demo' | 'partner',
    { uuid: string; uid: string; namespace: string; account: string; patientId: string }
  > = {} as never;

  const start = async () => {
    server = (await startOnDataDir(dataDir, databaseUrl, env)).running;
    api = new ApiClient(server.url);
  };
  const db = () => server!.ctx.db.kysely;
  /** Audit event ids recorded since the collector was configured, oldest first. */
  const recordedIds = async (after: number) =>
    (await db().selectFrom('audit_events').select('id').where('id', '>', after).orderBy('id').execute()).map(
      (r) => Number(r.id),
    );
  const received = () => collector.messages.map((m) => m.event.auditEventId);
  const view = (sid: string, study: { uid: string }) =>
    fetch(`${server!.url}/dicomweb/studies/${study.uid}/metadata?sid=${sid}`);
  const download = (sid: string, study: { uid: string; namespace: string }) =>
    fetch(`${server!.url}/api/v3/storage/study/${study.namespace}/${study.uid}/download?sid=${sid}`);
  let firstId = 0;

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-atna-'));
    dataDir = path.join(work, 'data');
    databaseUrl = dialect === 'postgres' ? await createPgDatabase() : undefined;
    const certs = makeCertificates(work);
    collector = new Collector({ key: certs.key, cert: certs.cert });
    port = await collector.start();
    env = {
      ATNA_HOST: '127.0.0.1',
      ATNA_PORT: String(port),
      ATNA_TRANSPORT: 'tls',
      ATNA_CA_FILE: certs.ca,
      ATNA_SITE_ID: 'TEST-HOSPITAL',
      ATNA_SOURCE_ID: 'inbox-under-test',
      ATNA_RETRY_MS: '100',
      // The destination the admin adds is on this host.
      DICOM_ALLOWED_HOSTS: '127.0.0.1',
    };
    await start();
    firstId = Number(
      (
        await db()
          .selectFrom('audit_events')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirst()
      )?.max ?? 0,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    await collector?.stop();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('sends sign-ins, failures, views, downloads, shares and admin changes, each valid and naming its own account', async () => {
    expect(
      (await api.call('session/login', { login: 'admin@demo.local', password: 'wrong-password' })).status,
    ).not.toBe(200);
    admin = await api.login('admin@demo.local', DEMO_PASSWORD);
    partner = await api.login('partner@demo.local', DEMO_PASSWORD);
    for (const [key, sid, group, file] of [
      ['demo', admin, 'Emergency', 'CT_small.dcm'],
      ['partner', partner, 'Referrals', 'MR_small.dcm'],
    ] as const) {
      const namespace = (await api.groups(sid)).find((g) => g.name === group)!.namespace_id;
      const uploaded = await api.upload(sid, namespace, fs.readFileSync(path.join(SAMPLES, file)));
      expect(uploaded.status).toBe(202);
      const row = await db()
        .selectFrom('studies')
        .select(['uuid', 'study_uid', 'account_id', 'patientid'])
        .where('uuid', '=', uploaded.body.study_uuid as string)
        .executeTakeFirstOrThrow();
      studies[key] = {
        uuid: row.uuid,
        uid: row.study_uid,
        namespace,
        account: row.account_id,
        patientId: row.patientid,
      };
    }
    for (const [key, sid] of [
      ['demo', admin],
      ['partner', partner],
    ] as const) {
      expect((await view(sid, studies[key])).status).toBe(200);
      const zip = await download(sid, studies[key]);
      expect(zip.status).toBe(200);
      await zip.arrayBuffer();
    }
    const cardiology = (await api.groups(admin)).find((g) => g.name === 'Cardiology')!;
    expect(
      (await api.call('study/share', { uuid: studies.demo.uuid, group_id: cardiology.uuid }, admin)).body
        .status,
    ).toBe('OK');
    const account = (await api.call('account/list', {}, admin)).body.accounts[0].uuid as string;
    const added = await api.call(
      'destination/add',
      { account_id: account, name: 'Audit PACS', address: '127.0.0.1', aetitle: 'AUDITPACS', port: 11112 },
      admin,
    );
    expect(added.body).toMatchObject({ uuid: expect.any(String) });

    const expected = await recordedIds(firstId);
    await until(
      () => Promise.resolve(received().length),
      (n) => n >= expected.length,
      20_000,
    );
    expect(collector.framingErrors).toEqual([]);
    expect(received()).toEqual(expected);

    const messages = collector.messages;
    await validate(messages, work);
    for (const m of messages) {
      expect(m.header[0]).toBe('<85>1');
      expect(m.header[3]).toBe('imaging-inbox');
      expect(m.header[5]).toBe('IHE+DICOM');
      expect(m.event.siteId).toBe('TEST-HOSPITAL');
    }
    const byType = (code: string) => messages.filter((m) => m.event.types.includes(code));
    const [failed, ...logins] = byType('LOGIN');
    expect(failed!.event).toMatchObject({
      id: '110114',
      outcome: '4',
      requestor: 'admin@demo.local',
      requestorAddress: '127.0.0.1',
    });
    expect(failed!.event.types).toContain('110122');
    expect(logins.map((m) => [m.event.outcome, m.event.requestor])).toEqual([
      ['0', 'admin@demo.local'],
      ['0', 'partner@demo.local'],
    ]);
    const views = byType('STUDY_VIEW');
    expect(views.map((m) => [m.event.id, m.event.action, m.event.requestor])).toEqual([
      ['110103', 'R', 'admin@demo.local'],
      ['110103', 'R', 'partner@demo.local'],
    ]);
    expect(byType('STUDY_DOWNLOAD').map((m) => [m.event.id, m.event.requestor])).toEqual([
      ['110106', 'admin@demo.local'],
      ['110106', 'partner@demo.local'],
    ]);
    const shared = messages.filter((m) => m.event.id === '110104' && m.event.action === 'R');
    expect(shared.map((m) => [m.event.types, m.event.studyUid, m.event.requestor])).toEqual([
      [['CREATE'], studies.demo.uid, 'admin@demo.local'],
    ]);
    expect(shared[0]!.xml).toContain(
      `UserID="${cardiology.uuid}" UserIsRequestor="false"><RoleIDCode csd-code="110152"`,
    );
    const change = byType('CREATE').find((m) => m.xml.includes('urn:imaging-inbox:destination:'))!;
    expect(change.event).toMatchObject({ id: '110113', action: 'C', requestor: 'admin@demo.local' });
    expect(change.event.types).toContain('110131');

    // Each message about a study names that study's own account, patient and user: none of the other's.
    const aboutStudies = messages.filter((m) => m.event.studyUid);
    expect(aboutStudies.length).toBeGreaterThanOrEqual(6);
    for (const m of aboutStudies) {
      const own = Object.values(studies).find((s) => s.uid === m.event.studyUid)!;
      expect(m.event.account).toBe(own.account);
      expect(m.event.patient?.id).toBe(own.patientId);
      expect(m.event.requestor).toBe(own === studies.demo ? 'admin@demo.local' : 'partner@demo.local');
    }
  }, 120_000);

  it('keeps the events made while the collector is down and sends them, in order, once it is back', async () => {
    const before = collector.messages.length;
    const last = received().at(-1)!;
    await collector.stop();
    for (let i = 0; i < 3; i++) {
      // A new address each time, so no read is folded into the previous one (READ_AUDIT_WINDOW_MS).
      await fetch(`${server!.url}/dicomweb/studies/${studies.demo.uid}/metadata?sid=${admin}`, {
        headers: { 'x-forwarded-for': `10.0.0.${i + 1}` },
      });
      await download(partner, studies.partner).then((r) => r.arrayBuffer());
      await api.call('session/login', { login: 'partner@demo.local', password: 'wrong-password' });
    }
    const made = await recordedIds(last);
    expect(made.length).toBeGreaterThanOrEqual(6);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(collector.messages.length).toBe(before);
    const queued = await db()
      .selectFrom('atna_outbox' as never)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number((queued as { n: unknown }).n)).toBe(made.length);
    const metrics = await (await fetch(`${server!.url}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`imaging_inbox_atna_queue_messages\\{[^}]*\\} ${made.length}\\b`));

    await collector.start(port);
    await until(
      () => Promise.resolve(received().length),
      (n) => n >= before + made.length,
      30_000,
    );
    expect(received().slice(before)).toEqual(made);
    await validate(collector.messages.slice(before), work);
  }, 120_000);

  it('keeps them across a server restart while the collector is down', async () => {
    const before = collector.messages.length;
    const last = received().at(-1)!;
    await collector.stop();
    await view(partner, studies.partner);
    await api.call('session/logout', {}, partner);
    await server!.stop();
    server = undefined;
    await start();
    // After the restart: a sign-in, and a failed one.
    admin = await api.login('admin@demo.local', DEMO_PASSWORD);
    await api.call('session/login', { login: 'nobody@demo.local', password: 'wrong-password' });
    const made = await recordedIds(last);
    expect(made.length).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(collector.messages.length).toBe(before);

    await collector.start(port);
    await until(
      () => Promise.resolve(received().length),
      (n) => n >= before + made.length,
      30_000,
    );
    expect(received().slice(before)).toEqual(made);
    expect(collector.framingErrors).toEqual([]);
    await validate(collector.messages.slice(before), work);
    expect(collector.messages.at(-1)!.event).toMatchObject({
      id: '110114',
      outcome: '4',
      requestor: 'nobody@demo.local',
    });
  }, 120_000);
  it.runIf(dialect === 'postgres')(
    'sends each event once, in order, when two server processes share the database',
    async () => {
      const before = collector.messages.length;
      const last = received().at(-1)!;
      const second = (await startOnDataDir(path.join(work, 'second'), databaseUrl, env)).running;
      try {
        const other = new ApiClient(second.url);
        const viewer = await other.login('partner@demo.local', DEMO_PASSWORD);
        for (let i = 0; i < 4; i++) {
          await api.call('session/login', { login: `nobody${i}@demo.local`, password: 'wrong-password' });
          await other.call('session/login', { login: `someone${i}@demo.local`, password: 'wrong-password' });
        }
        await download(viewer, studies.partner).then((r) => r.arrayBuffer());
        const made = await recordedIds(last);
        expect(made.length).toBeGreaterThanOrEqual(10);
        await until(
          () => Promise.resolve(received().length),
          (n) => n >= before + made.length,
          30_000,
        );
        // A little longer: a second sender running alongside would send some twice.
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        expect(received().slice(before)).toEqual(made);
      } finally {
        await second.stop();
      }
    },
    120_000,
  );
});
