import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';
import { startTestS3, type TestS3 } from '../support/s3-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { TestServer } from '../support/test-server.js';

/**
 * A TCP relay on 127.0.0.1 in front of `port` that the test can cut and restore on the same
 * address, so a server whose object store sits behind it finds it unreachable (refused, its open
 * sockets dropped) and then reachable again, as a failed S3 endpoint would be.
 */
async function tcpGate(port: number) {
  const sockets = new Set<net.Socket>();
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (at = 0) =>
    new Promise<number>((resolve) =>
      relay.listen(at, '127.0.0.1', () => resolve((relay.address() as net.AddressInfo).port)),
    );
  const own = await listen();
  return {
    url: `http://127.0.0.1:${own}`,
    cut: () =>
      new Promise<void>((resolve) => {
        relay.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
    restore: () => listen(own),
    close: () => new Promise<void>((resolve) => relay.close(() => resolve())),
  };
}

const probe = async (server: { url: string }, route: string) => {
  const response = await fetch(`${server.url}${route}`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe.each(DIALECTS)('/healthz and /readyz on %s', (dialect) => {
  let server: TestServer;
  // On TEST_BLOB_STORE=s3 the object store is this suite's own, reached through a gate it can cut.
  let s3: TestS3 | undefined;
  let gate: Awaited<ReturnType<typeof tcpGate>> | undefined;
  beforeAll(async () => {
    if (process.env.TEST_BLOB_STORE === 's3') {
      s3 = await startTestS3();
      gate = await tcpGate(Number(new URL(s3.env.S3_ENDPOINT!).port));
    }
    server = await startTestServer(dialect, {
      SEED_STUDIES: '0',
      PROCESS_ID: `probe-${dialect}`,
      ...(s3 && gate ? { ...s3.env, S3_ENDPOINT: gate.url } : {}),
    });
  });
  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    await gate?.close();
    await s3?.stop();
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
    // The file store's directory gone, or the object store's endpoint refusing connections.
    const blobDir = server.ctx.config.blobDir;
    if (gate) await gate.cut();
    else fs.renameSync(blobDir, `${blobDir}.away`);
    try {
      const { status, body } = await probe(server, '/readyz');
      expect(status).toBe(503);
      expect(body).toMatchObject({ status: 'NOT_READY', ready: false, database: 'ok' });
      expect(body['blobs']).toMatch(gate ? /ECONNREFUSED|socket|connect/i : /ENOENT/);
    } finally {
      if (gate) await gate.restore();
      else fs.renameSync(`${blobDir}.away`, blobDir);
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
