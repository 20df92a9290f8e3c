import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace } from '../support/netns.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import { dcmtk } from '../support/dcmtk-qr.js';
import type { TestPki } from '../support/tls-certs.js';
import { makeTestPki } from '../support/tls-certs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** Our TLS listener's and plain listener's ports as dcmtk inside the namespace reaches them. */
const TLS_INSIDE_PORT = 2762;
const PLAIN_INSIDE_PORT = 11112;
const SAMPLE = '/usr/lib/python3/dist-packages/pydicom/data/test_files/CT_small.dcm';
const SAMPLE_SOP_UID = '1.3.6.1.4.1.5962.1.1.1.1.1.20040119072730.12322';

describe.each(DIALECTS)('DICOM TLS listener with dcmtk on %s', (dialect) => {
  let server: TestServer;
  let pki: TestPki;
  let ns: NetworkNamespace;
  let tlsInside: Exposed;
  let plainInside: Exposed;
  const log: string[] = [];

  beforeAll(async () => {
    pki = await makeTestPki();
    server = await startTestServer(
      dialect,
      {
        DICOM_TLS_PORT: '0',
        DICOM_TLS_CERT_FILE: pki.pem('server'),
        DICOM_TLS_KEY_FILE: pki.key('server'),
        DICOM_TLS_CA_FILE: pki.pem('ca'),
      },
      (line) => log.push(line),
    );
    ns = await createNetworkNamespace();
    tlsInside = await exposeToNamespace(ns, server.dicomTlsPort!, TLS_INSIDE_PORT);
    plainInside = await exposeToNamespace(ns, server.dicomPort, PLAIN_INSIDE_PORT);
  }, 120_000);

  afterAll(async () => {
    await tlsInside?.close();
    await plainInside?.close();
    await ns?.stop();
    await server?.stop();
    pki?.remove();
  });

  /** dcmtk's TLS options: our client certificate `as`, trusting `trust` for the server's. */
  const tlsArgs = (as: string, trust = 'ca') => ['+tls', pki.key(as), pki.pem(as), '+cf', pki.pem(trust)];
  const echoscu = (args: string[], port = TLS_INSIDE_PORT) =>
    dcmtk(ns, 'echoscu', [...args, '-aet', 'DEMO_GATEWAY', '-aec', 'INBOX', '127.0.0.1', String(port)]);
  const refusalsSince = async (count: number) => {
    const refused = () => Promise.resolve(log.slice(count).filter((l) => l.includes('DICOM TLS connection')));
    return until(refused, (lines) => lines.length > 0, 10_000, 50);
  };

  it('answers C-ECHO over TLS 1.2+ to a peer whose certificate our CA signed, as the plain listener does', async () => {
    const run = await echoscu(['-d', ...tlsArgs('client')]);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/TLSv1\.[23]/);
    expect(run.output).toMatch(/Received Echo Response \(Success\)/);
    // The same association rules: an unregistered calling AE is refused over TLS too.
    const unknown = await dcmtk(ns, 'echoscu', [
      ...tlsArgs('client'),
      '-aet',
      'NOBODY',
      '-aec',
      'INBOX',
      '127.0.0.1',
      String(TLS_INSIDE_PORT),
    ]);
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/Calling AE Title Not Recognized/i);
  });

  it('stores what storescu sends over TLS, through the one ingest pipeline', async () => {
    const run = await dcmtk(ns, 'storescu', [
      ...tlsArgs('client'),
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '127.0.0.1',
      String(TLS_INSIDE_PORT),
      SAMPLE,
    ]);
    expect(run.code, run.output).toBe(0);
    const row = await server.ctx.db.kysely
      .selectFrom('instances')
      .select(['sop_instance_uid', 'size'])
      .where('sop_instance_uid', '=', SAMPLE_SOP_UID)
      .executeTakeFirst();
    expect(row?.sop_instance_uid).toBe(SAMPLE_SOP_UID);
  });

  it('refuses a peer whose certificate another CA signed, and logs why', async () => {
    const before = log.length;
    const run = await echoscu(tlsArgs('stranger'));
    expect(run.code).not.toBe(0);
    const refusals = await refusalsSince(before);
    expect(refusals.join('\n')).toMatch(/refused: .*(certificate|CERTIFICATE)/);
  });

  it('refuses a peer that presents no certificate when a CA is configured', async () => {
    const before = log.length;
    const run = await echoscu(['+tla', '+cf', pki.pem('ca')]);
    expect(run.code).not.toBe(0);
    expect((await refusalsSince(before)).join('\n')).toMatch(/certificate/i);
  });

  it('refuses plain DICOM on the TLS port, and logs why', async () => {
    const before = log.length;
    const run = await echoscu([]);
    expect(run.code).not.toBe(0);
    expect(run.output).not.toMatch(/Received Echo Response/);
    expect((await refusalsSince(before)).join('\n')).toMatch(
      /refused: .*(wrong version|http request|WRONG_VERSION|record)/i,
    );
    // The plain listener beside it still answers.
    const plain = await echoscu([], PLAIN_INSIDE_PORT);
    expect(plain.code, plain.output).toBe(0);
  });

  it('refuses TLS 1.1 and 1.0 in the handshake, and logs why', async () => {
    for (const version of ['-tls1_1', '-tls1']) {
      const before = log.length;
      const out = await ns
        .run('sh', [
          '-c',
          `openssl s_client ${version} -cipher 'DEFAULT:@SECLEVEL=0' -cert ${pki.pem('client')} -key ${pki.key(
            'client',
          )} -connect 127.0.0.1:${TLS_INSIDE_PORT} </dev/null 2>&1; echo "exit=$?"`,
        ])
        .catch((error: Error) => error.message);
      // Our side answers the hello with a protocol_version alert; no cipher is ever agreed.
      expect(out).toMatch(/alert protocol version/);
      expect(out).toMatch(/Cipher is \(NONE\)/);
      expect(out).toMatch(/exit=[1-9]/);
      expect((await refusalsSince(before)).join('\n')).toMatch(/unsupported protocol|UNSUPPORTED_PROTOCOL/i);
    }
  });
});
