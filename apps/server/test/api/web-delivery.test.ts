import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { startTestServer } from '../support/test-server.js';

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A request with exactly the headers given (fetch would add its own Accept-Encoding and inflate). */
function raw(url: string, headers: Record<string, string> = {}, body?: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: body === undefined ? 'GET' : 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

function decoded(answer: RawAnswer): Buffer {
  switch (answer.headers['content-encoding']) {
    case 'br':
      return zlib.brotliDecompressSync(answer.body);
    case 'gzip':
      return zlib.gunzipSync(answer.body);
    default:
      return answer.body;
  }
}

const SCRIPT = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
const INDEX =
  '<!doctype html><html><head><script type="module" src="/assets/main-Ab12Cd34.js"></script></head></html>\n';
const VIEWER =
  '<!doctype html><html><head><script type="module" src="/assets/viewer-Ab12Cd34.js"></script></head></html>\n';

/** A built web app as apps/web's build leaves it: hashed assets with .br and .gz beside them. */
function webDist(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, 'viewer'));
  const files: Record<string, string> = {
    'index.html': INDEX,
    'viewer/index.html': VIEWER,
    'assets/main-Ab12Cd34.js': SCRIPT,
  };
  for (const [name, text] of Object.entries(files)) {
    fs.writeFileSync(path.join(dir, name), text);
    fs.writeFileSync(path.join(dir, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dir, `${name}.gz`), zlib.gzipSync(text));
  }
  return dir;
}

// How the server answers bytes over HTTP does not depend on the database: SQLite only.
describe('web app and JSON delivery', () => {
  let server: TestServer;
  let dist: string;
  beforeAll(async () => {
    dist = webDist();
    server = await startTestServer('sqlite', { WEB_DIST: dist });
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('answers a hashed asset precompressed by Accept-Encoding, cached for a year', async () => {
    const url = `${server.url}/assets/main-Ab12Cd34.js`;
    const br = await raw(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(decoded(br).toString()).toBe(SCRIPT);

    const gz = await raw(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decoded(gz).toString()).toBe(SCRIPT);

    const plain = await raw(url);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.toString()).toBe(SCRIPT);
  });

  it('makes browsers revalidate every entry page: index.html, its client routes and the viewer', async () => {
    const pages: [string, string][] = [
      ['/', INDEX],
      ['/index.html', INDEX],
      ['/group/list', INDEX],
      ['/viewer/', VIEWER],
      ['/viewer', VIEWER],
      ['/viewer/index.html', VIEWER],
    ];
    for (const [route, page] of pages) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const answer = await raw(`${server.url}${route}`, { 'accept-encoding': encoding });
        expect(answer.status, route).toBe(200);
        expect(answer.headers['content-type'], route).toMatch(/text\/html/);
        expect(answer.headers['cache-control'], route).toBe('no-cache');
        expect(decoded(answer).toString(), route).toBe(page);
      }
    }
  });

  it('compresses a large JSON answer for a client that takes it, and only then', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const form = `sid=${encodeURIComponent(sid)}&page.rows=50`;
    const type = { 'content-type': 'application/x-www-form-urlencoded' };
    const plain = await raw(`${server.url}/api/v3/study/list`, type, form);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);

    const br = await raw(`${server.url}/api/v3/study/list`, { ...type, 'accept-encoding': 'br, gzip' }, form);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toMatch(/Accept-Encoding/i);
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(decoded(br).toString())).toEqual(JSON.parse(plain.body.toString()));

    const gz = await raw(`${server.url}/api/v3/study/list`, { ...type, 'accept-encoding': 'gzip' }, form);
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decoded(gz).toString())).toEqual(JSON.parse(plain.body.toString()));
  });

  it('leaves a small JSON answer as it is', async () => {
    const answer = await raw(`${server.url}/api/v3/health`, { 'accept-encoding': 'br, gzip' });
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(answer.body.toString())).toEqual({ status: 'OK' });
  });

  // Last: it rebuilds the web app under the running server as `npm run build` does.
  it("serves a rebuild at once, and still the previous build's chunks a page open on it asks for", async () => {
    const before = await raw(`${server.url}/assets/main-Ab12Cd34.js`);
    expect(before.status).toBe(200);
    // The rebuild: a new index.html naming new hashed files; the build keeps the previous build's
    // files beside them (apps/web/scripts/keep-previous-assets.ts), compressed forms included.
    const index = INDEX.replace('main-Ab12Cd34', 'main-Ef56Gh78');
    const script = SCRIPT.replace('x', 'y');
    for (const name of ['index.html', 'index.html.br', 'index.html.gz']) fs.rmSync(path.join(dist, name));
    fs.writeFileSync(path.join(dist, 'index.html'), index);
    fs.writeFileSync(path.join(dist, 'assets/main-Ef56Gh78.js'), script);

    const page = await raw(`${server.url}/group/list`, { 'accept-encoding': 'br, gzip' });
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(decoded(page).toString()).toBe(index);

    const fresh = await raw(`${server.url}/assets/main-Ef56Gh78.js`);
    expect(fresh.status).toBe(200);
    expect(fresh.headers['content-type']).toMatch(/javascript/);
    expect(fresh.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(fresh.body.toString()).toBe(script);

    const kept = await raw(`${server.url}/assets/main-Ab12Cd34.js`, { 'accept-encoding': 'br' });
    expect(kept.status).toBe(200);
    expect(kept.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(decoded(kept).toString()).toBe(SCRIPT);
  });

  it('answers 404 for a hashed file no build has, never index.html in its place', async () => {
    const gone = await raw(`${server.url}/assets/Page-Zz99Zz99.js`);
    expect(gone.status).toBe(404);
    expect(gone.headers['content-type']).toMatch(/application\/json/);
    expect(gone.body.toString()).not.toMatch(/<html/);
  });
});
