import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const WEB_DIST = path.resolve(import.meta.dirname, '../../../web/dist');

/** The headers every answer must carry, whatever it is. */
function expectSecurityHeaders(response: Response, what: string): void {
  const csp = response.headers.get('content-security-policy') ?? '';
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp, what).toContain("frame-ancestors 'self'");
  expect(csp, what).toContain("frame-src 'self'");
  expect(csp, what).toContain("object-src 'none'");
  expect(response.headers.get('x-frame-options'), what).toBe('SAMEORIGIN');
  expect(response.headers.get('referrer-policy'), what).toBe('no-referrer');
  expect(response.headers.get('x-content-type-options'), what).toBe('nosniff');
  expect(response.headers.get('permissions-policy'), what).toMatch(/camera=\(\).*microphone=\(\)/);
  // Plain HTTP, and no trusted proxy said otherwise.
  expect(response.headers.get('strict-transport-security'), what).toBeNull();
}

describe('built pages', () => {
  // The CSP forbids inline script, so the built pages must not need any.
  it.each(['index.html', 'viewer/index.html'])('%s loads scripts by src only', (page) => {
    const file = path.join(WEB_DIST, page);
    expect(fs.existsSync(file), `${file} missing: run npm run build first`).toBe(true);
    const html = fs.readFileSync(file, 'utf8');
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:/i);
  });
});

describe.each(DIALECTS)('security headers (%s)', (dialect) => {
  let server: TestServer;
  let sid: string;

  beforeAll(async () => {
    // The test client connects from 127.0.0.1: that is the trusted proxy here.
    server = await startTestServer(dialect, { WEB_DIST, TRUST_PROXY: '127.0.0.1' });
    sid = await server.api.login('clinician@demo.local');
  });
  afterAll(async () => server?.stop());

  const get = (pathName: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${pathName}`, { headers });

  it('are on every kind of answer', async () => {
    const studies = (await (await get(`/dicomweb/studies?sid=${sid}`)).json()) as {
      '0020000D': { Value: [string] };
    }[];
    const studyUid = studies[0]!['0020000D'].Value[0];
    const series = (await (await get(`/dicomweb/studies/${studyUid}/series?sid=${sid}`)).json()) as {
      '0020000E': { Value: [string] };
    }[];
    const seriesUid = series[0]!['0020000E'].Value[0];
    const assets = fs.readdirSync(path.join(WEB_DIST, 'assets'));
    const script = assets.find((name) => name.endsWith('.js'))!;
    const answers: [string, Promise<Response>, number][] = [
      ['the inbox', get('/'), 200],
      ['an inbox route', get('/studies'), 200],
      ['the viewer', get('/viewer/'), 200],
      ['a public request link page', get('/link/some-token'), 200],
      ['a public send page', get('/send/some-token'), 200],
      ['a script', get(`/assets/${script}`), 200],
      ['api/v3', get(`/api/v3/session/user?sid=${sid}`), 200],
      ['an api/v3 error', get('/api/v3/study/get?sid=bad'), 401],
      ['a refused api/v3 call', get(`/api/v3/study/get?sid=${sid}&uuid=nope`), 412],
      ['an unknown api route', get('/api/v3/nothing/here'), 404],
      ['QIDO-RS', get(`/dicomweb/studies?sid=${sid}`), 200],
      ['WADO-RS metadata', get(`/dicomweb/studies/${studyUid}/metadata?sid=${sid}`), 200],
      ['a DICOMweb error', get(`/dicomweb/studies/1.2.3.4/metadata?sid=${sid}`), 404],
      ['a thumbnail', get(`/dicomweb/studies/${studyUid}/series/${seriesUid}/thumbnail?sid=${sid}`), 200],
      [
        'a malformed body',
        fetch(`${server.url}/api/v3/session/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{',
        }),
        400,
      ],
    ];
    for (const [what, pending, status] of answers) {
      const response = await pending;
      expect(response.status, what).toBe(status);
      expectSecurityHeaders(response, what);
      await response.arrayBuffer();
    }
  });

  it('HSTS only when a trusted proxy says the client came over HTTPS', async () => {
    const overHttps = await get(`/api/v3/health`, { 'x-forwarded-proto': 'https' });
    expect(overHttps.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8,}/);
    const page = await get('/', { 'x-forwarded-proto': 'https' });
    expect(page.headers.get('strict-transport-security')).toMatch(/^max-age=\d{8,}/);
    await page.arrayBuffer();
    const plain = await get(`/api/v3/health`);
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('without a trusted proxy', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { WEB_DIST, SEED_DEMO: '0' });
  });
  afterAll(async () => server?.stop());

  it('X-Forwarded-Proto from anyone is ignored', async () => {
    const response = await fetch(`${server.url}/api/v3/health`, {
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });
});
