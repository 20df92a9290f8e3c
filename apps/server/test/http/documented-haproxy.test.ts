import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/child-server.js';
import { documentedHaproxyConfig, HaproxyProcess } from '../support/documented-haproxy.js';
import { DEMO_PASSWORD, startTestServer, type TestServer } from '../support/test-server.js';

const FORGED = '=HYPERLINK("http://evil.example","click")';

/**
 * docs/deploy.md's haproxy block itself (only its bind and server lines moved to loopback ports) in
 * front of a real server on PostgreSQL. Clients connect from their own loopback addresses
 * (127.0.0.2, 127.0.0.3), haproxy reaches the server from 127.0.0.1. TRUST_PROXY is the whole
 * loopback range, wider than the document advises, so the clients' own addresses are "trusted" too:
 * only haproxy dropping what the client sent keeps a forged X-Forwarded-For from being read.
 */
describe('the haproxy configuration of docs/deploy.md', () => {
  let server: TestServer;
  let proxy: HaproxyProcess;
  let proxyPort: number;
  let work: string;

  beforeAll(async () => {
    server = await startTestServer('postgres', { SEED_STUDIES: '0', TRUST_PROXY: 'loopback' });
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-haproxy-'));
    proxyPort = await freePort();
    const config = documentedHaproxyConfig({
      httpPort: proxyPort,
      dicomPort: await freePort(),
      http: [`node-a 127.0.0.1:${new URL(server.url).port}`],
      dicom: [`node-a 127.0.0.1:${server.dicomPort}`],
    });
    expect(config).toContain('option forwardfor');
    proxy = await HaproxyProcess.start(work, config, `http://127.0.0.1:${proxyPort}/healthz`);
  });
  afterAll(async () => {
    await proxy?.stop();
    await server?.stop();
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  /** session/login through haproxy, connecting from `from` and sending `forwardedFor` if given. */
  function loginVia(from: string, login: string, password: string, forwardedFor?: string) {
    const body = new URLSearchParams({ login, password }).toString();
    return new Promise<number>((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: proxyPort,
          localAddress: from,
          method: 'POST',
          path: '/api/v3/session/login',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            'content-length': Buffer.byteLength(body),
            ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? 0));
        },
      );
      request.on('error', reject);
      request.end(body);
    });
  }

  /** The addresses the audit recorded for sign-ins of `login`. */
  async function auditedAddresses(login: string): Promise<string[]> {
    const rows = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['ip', 'detail'])
      .where('action', '=', 'LOGIN')
      .execute();
    return rows.filter((r) => String(r.detail ?? '').includes(login)).map((r) => String(r.ip));
  }

  it('audits and counts a client by the address haproxy saw, whatever X-Forwarded-For it sends', async () => {
    for (const forged of [FORGED, '1.2.3.4', '1.2.3.4, 127.0.0.9'])
      expect(await loginVia('127.0.0.2', 'nobody@demo.local', 'wrong-wrong-1', forged)).toBe(412);
    expect(await auditedAddresses('nobody@demo.local')).toEqual(['127.0.0.2', '127.0.0.2', '127.0.0.2']);
    const counted = await server.ctx.db.kysely
      .selectFrom('auth_failures')
      .select('key')
      .where('key', 'like', 'ip:%')
      .execute();
    expect(new Set(counted.map((r) => r.key))).toEqual(new Set(['ip:127.0.0.2']));
  });

  it("locks out one client's address after its 30 failures, not another client's", async () => {
    // One after another: thirty hashes at once would starve the /readyz haproxy checks on a small machine.
    for (let i = 0; i < 30; i++)
      expect(await loginVia('127.0.0.2', `guess-${i}@demo.local`, 'wrong-wrong-1', `10.0.${i}.1`)).not.toBe(
        200,
      );
    expect(await loginVia('127.0.0.2', 'admin@demo.local', DEMO_PASSWORD, '10.9.9.9')).toBe(429);
    expect(await loginVia('127.0.0.3', 'admin@demo.local', DEMO_PASSWORD)).toBe(200);
  }, 120_000);
});
