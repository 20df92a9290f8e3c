import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

const probe = async (server: { url: string }, route: string) => {
  const response = await fetch(`${server.url}${route}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe.each(DIALECTS)('/healthz and /readyz on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0', PROCESS_ID: `probe-${dialect}` });
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
  });

  it('answers up and ready, naming the process', async () => {
    expect(await probe(server, '/healthz')).toEqual({
      status: 200,
      body: { status: 'OK', process: `probe-${dialect}` },
    });
    expect(await probe(server, '/readyz')).toEqual({
      status: 200,
      body: {
        status: 'OK',
        ready: true,
        process: `probe-${dialect}`,
        draining: false,
        database: 'ok',
        blobs: 'ok',
      },
    });
  });

  it('is not ready while the blob store cannot be reached, and ready again once it can', async () => {
    const blobDir = server.ctx.config.blobDir;
    fs.renameSync(blobDir, `${blobDir}.away`);
    try {
      const { status, body } = await probe(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: 'NOT_READY', ready: false, database: 'ok' });
      expect(body['blobs']).toMatch(/ENOENT/);
    } finally {
      fs.renameSync(`${blobDir}.away`, blobDir);
    }
    expect((await probe(server, '/readyz')).status).toBe(200);
  });

  it('is not ready while draining, and still up', async () => {
    server.ctx.services.readiness.drain();
    expect(await probe(server, '/readyz')).toMatchObject({
      status: 503,
      body: { status: 'NOT_READY', ready: false, draining: true, database: 'ok', blobs: 'ok' },
    });
    expect((await probe(server, '/healthz')).status).toBe(200);
  });

  it('is not ready once the database cannot be reached', async () => {
    await server.ctx.db.close();
    const { status, body } = await probe(server, '/readyz');
    expect(status).toBe(503);
    expect(body['database']).not.toBe('ok');
  });
});

describe('SIGTERM', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drain-test-'));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('turns /readyz to 503 at once while the process still serves for DRAIN_SECONDS, then stops', async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    const server = await startChildServer(dataDir, { DRAIN_SECONDS: '2', SEED_DEMO: '0' });
    try {
      expect((await probe(server, '/readyz')).status).toBe(200);
      // Started as deployed, with its flags for node: no warning that one is missing.
      expect(server.output()).not.toContain('Started without');
      const exited = new Promise<number | null>((resolve) => server.child.once('exit', resolve));
      const signalled = Date.now();
      server.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
      expect(await probe(server, '/readyz')).toMatchObject({ status: 503, body: { draining: true } });
      expect((await probe(server, '/healthz')).status).toBe(200);
      expect(await exited).toBe(0);
      expect(Date.now() - signalled).toBeGreaterThanOrEqual(2_000);
    } finally {
      await server.kill();
    }
  });
});
