import { execFile } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import type { QueuedEvent } from '../../src/modules/atna/index.js';
import { auditMessageXml } from '../../src/modules/atna/index.js';
import { syslogMessage } from '../../src/modules/atna/syslog-frame.js';
import { openCollector } from '../../src/modules/atna/syslog-transport.js';
import { makeTestPki } from '../support/tls-certs.js';

/**
 * The ATNA pieces one by one, on real sockets: TCP frames by octet counting and UDP one message a
 * datagram; TLS refuses a collector whose certificate the configured CA did not sign; the messages
 * of a node's query, a de-identified download and a hostile patient name still validate against the
 * DICOM audit message schema; and the configuration refuses what cannot work.
 */

const run = promisify(execFile);
const SCHEMA = path.resolve(import.meta.dirname, 'fixtures/dicom-audit-message.rng');
const SOURCE = { sourceId: 'inbox-test', siteId: 'SITE', appName: 'imaging-inbox' };
const HEADER = { hostname: 'host', appName: 'imaging-inbox', procId: '1' };

const event = (over: Partial<QueuedEvent>): QueuedEvent => ({
  queueId: 1,
  eventId: 41,
  at: Date.UTC(2026, 11, 2, 12, 0, 0),
  userId: 'b1f0c0de-0000-4000-8000-000000000001',
  userEmail: 'dr@hospital.example',
  userName: 'Dr Example',
  accountId: 'acc-1',
  action: 'STUDY_VIEW',
  objectType: 'study',
  objectId: 'study-1',
  outcome: 'SUCCESS',
  detail: null,
  ip: '10.1.2.3',
  study: { uid: '1.2.3.4', patientId: 'MRN-1', patientName: 'DOE^JANE', accession: 'A1' },
  ...over,
});

async function validates(xml: string, dir: string): Promise<void> {
  const file = path.join(dir, `m-${Math.random().toString(36).slice(2)}.xml`);
  fs.writeFileSync(file, xml);
  const { stderr } = await run('xmllint', ['--noout', '--relaxng', SCHEMA, file]);
  expect(stderr.trim()).toBe(`${file} validates`);
}

describe('ATNA messages, transports and configuration', () => {
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-atna-unit-'));
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("tells a node's query, a de-identified download and a hostile name in schema-valid messages", async () => {
    const query = auditMessageXml(
      event({
        userId: null,
        userEmail: null,
        userName: null,
        action: 'DICOM_FIND',
        objectType: 'dicom_node',
        objectId: 'node-1',
        study: null,
        detail: JSON.stringify({
          calling_ae: 'MODALITY1',
          model: 'study-root',
          keys: { PatientName: 'DOE*' },
        }),
      }),
      SOURCE,
    );
    expect(query).toContain('<EventID csd-code="110112"');
    expect(query).toContain(
      'UserID="MODALITY1" AlternativeUserID="AETITLES=MODALITY1" UserIsRequestor="true"',
    );
    expect(query).toContain('ParticipantObjectTypeCodeRole="24"');
    const keys = /<ParticipantObjectQuery>([^<]*)</.exec(query)![1]!;
    expect(JSON.parse(Buffer.from(keys, 'base64').toString())).toEqual({ PatientName: 'DOE*' });
    await validates(query, dir);

    const deidentified = auditMessageXml(
      event({
        action: 'STUDY_DOWNLOAD',
        detail: JSON.stringify({ deidentified: { profile: 'p', name: 'Teaching' } }),
      }),
      SOURCE,
    );
    expect(deidentified).toContain('<EventID csd-code="110106"');
    expect(deidentified).toContain('<Anonymized>true</Anonymized>');
    expect(deidentified).toContain('csd-code="110154"');
    await validates(deidentified, dir);

    const hostile = auditMessageXml(
      event({
        study: { uid: '1.2', patientId: 'X"><Evil/>', patientName: 'A&B <C>\u0001\u0007', accession: '' },
        userName: 'O\'Brien "<script>"',
      }),
      SOURCE,
    );
    expect(hostile).not.toContain('<Evil/>');
    expect(hostile).not.toContain('\u0001');
    expect(hostile).toContain('<ParticipantObjectName>A&amp;B &lt;C&gt;</ParticipantObjectName>');
    await validates(hostile, dir);

    // A failed sign-in: the login typed is the requestor, the outcome a minor failure with its reason.
    const failed = auditMessageXml(
      event({
        userId: null,
        action: 'LOGIN',
        objectType: 'session',
        objectId: null,
        outcome: 'FAILURE',
        study: null,
        detail: JSON.stringify({ login: 'someone@x', reason: 'rate_limited' }),
      }),
      SOURCE,
    );
    expect(failed).toContain('EventOutcomeIndicator="4"');
    expect(failed).toContain('<EventOutcomeDescription>LOGIN failed: rate_limited</EventOutcomeDescription>');
    expect(failed).toContain('UserID="someone@x"');
    await validates(failed, dir);
  });

  it('frames messages by octet counting over TCP and sends one datagram each over UDP', async () => {
    const messages = ['first', 'second é'].map((text, i) =>
      syslogMessage(
        HEADER,
        Date.UTC(2026, 0, 1),
        auditMessageXml(event({ eventId: i, userName: text }), SOURCE),
      ),
    );

    const chunks: Buffer[] = [];
    const tcp = net.createServer((socket) => socket.on('data', (c: Buffer) => chunks.push(c)));
    await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
    const tcpPort = (tcp.address() as net.AddressInfo).port;
    const connection = await openCollector({
      host: '127.0.0.1',
      port: tcpPort,
      transport: 'tcp',
      caFile: undefined,
      certFile: undefined,
      keyFile: undefined,
    });
    for (const m of messages) await connection.send(m);
    await connection.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    tcp.close();
    const expected = Buffer.concat(messages.map((m) => Buffer.concat([Buffer.from(`${m.length} `), m])));
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    expect(
      messages[0]!
        .toString()
        .startsWith('<85>1 2026-01-01T00:00:00.000Z host imaging-inbox 1 IHE+DICOM - \uFEFF<?xml'),
    ).toBe(true);

    const datagrams: Buffer[] = [];
    const udp = dgram.createSocket('udp4');
    udp.on('message', (m) => datagrams.push(m));
    await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
    const sender = await openCollector({
      host: '127.0.0.1',
      port: udp.address().port,
      transport: 'udp',
      caFile: undefined,
      certFile: undefined,
      keyFile: undefined,
    });
    for (const m of messages) await sender.send(m);
    await sender.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    udp.close();
    expect(datagrams.map((d) => d.toString())).toEqual(messages.map((m) => m.toString()));
  });

  it('refuses a TLS collector whose certificate the configured CA did not sign, and nothing is written', async () => {
    // The collector presents a certificate of a CA the configuration does not name, then does.
    const pki = await makeTestPki();
    let received = 0;
    const server = tls.createServer(
      { key: fs.readFileSync(pki.key('stranger')), cert: fs.readFileSync(pki.pem('stranger')) },
      (s) => {
        s.on('data', (c: Buffer) => (received += c.length));
        s.on('error', () => {});
      },
    );
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as net.AddressInfo).port;
    const config = {
      host: '127.0.0.1',
      port,
      transport: 'tls' as const,
      certFile: undefined,
      keyFile: undefined,
    };
    await expect(openCollector({ ...config, caFile: pki.pem('ca') })).rejects.toThrow(
      /self[- ]signed|certificate|issuer/i,
    );
    // The same collector with its own CA configured is trusted.
    const ok = await openCollector({ ...config, caFile: pki.pem('otherca') });
    await ok.send(Buffer.from('x'));
    await ok.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    server.close();
    pki.remove();
    expect(received).toBe(3);
  });

  it('refuses configurations that cannot work, and is off without ATNA_HOST', () => {
    expect(loadConfig({}).atna).toBeUndefined();
    const bad = [
      { ATNA_PORT: '6514' },
      { ATNA_CA_FILE: '/etc/ca.pem' },
      { ATNA_HOST: 'collector', ATNA_TRANSPORT: 'udp', ATNA_CA_FILE: '/etc/ca.pem' },
      { ATNA_HOST: 'collector', ATNA_CERT_FILE: '/etc/cert.pem' },
      { ATNA_HOST: 'collector', ATNA_TRANSPORT: 'rfc3164' },
      { ATNA_HOST: 'collector', ATNA_APP_NAME: 'has space' },
      { ATNA_HOST: 'collector', ATNA_PORT: '70000' },
    ];
    for (const env of bad) expect(() => loadConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    expect(loadConfig({ ATNA_HOST: 'collector' }).atna?.collector).toMatchObject({
      port: 6514,
      transport: 'tls',
    });
    expect(loadConfig({ ATNA_HOST: 'collector', ATNA_TRANSPORT: 'udp' }).atna?.collector.port).toBe(514);
  });
});
