/**
 * An upload refused before its body was read to the end (too large) must not stall the next
 * request on the same keep-alive connection: Node cannot parse that request while the rest of the
 * refused body waits in the socket. This is what made the single-file upload tests time out now and
 * then (whichever later request reused the connection waited until the test's timeout).
 */
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { startTestServer } from '../support/test-server.js';

describe('a partly read request body', () => {
  let server: TestServer;
  let sid: string;
  let emergency: string;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

  beforeAll(async () => {
    server = await startTestServer('sqlite', { UPLOAD_MAX_BYTES: String(512 * 1024), SEED_STUDIES: '0' });
    sid = await server.api.login('clinician@demo.local');
    emergency = await server.api.namespaceOf(sid, 'Emergency');
  });
  afterAll(async () => {
    agent.destroy();
    await server?.stop();
  });

  /** One request over the single kept-alive socket; rejects after 5 s without an answer. */
  const request = (method: string, pathName: string, body?: Buffer) =>
    new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
      const r = http.request(
        `${server.url}${pathName}`,
        { method, agent, headers: body ? { 'content-type': 'application/dicom' } : {} },
        (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
        },
      );
      r.on('error', reject);
      r.setTimeout(5000, () => r.destroy(new Error(`no answer to ${pathName}`)));
      r.end(body);
    });

  it('closes the connection after refusing an oversized upload, so the next request is answered', async () => {
    const refused = await request(
      'POST',
      `/api/v3/storage/namespace/${emergency}/image?sid=${sid}`,
      Buffer.alloc(3 * 1024 * 1024),
    );
    expect(refused).toEqual({ status: 413, connection: 'close' });
    expect((await request('GET', '/healthz')).status).toBe(200);
    // A request whose body was read whole keeps its connection.
    expect((await request('GET', '/healthz')).connection).toBe('keep-alive');
  });
});
