import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountIdOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

/**
 * An endpoint that answers one byte a second and never finishes: its headers never end, so no
 * idle timeout fires. It records when each connection opened and closed.
 */
async function startTrickle() {
  const connections: { opened: number; closed?: number }[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    const entry: { opened: number; closed?: number } = { opened: Date.now() };
    connections.push(entry);
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.resume();
    const answer = 'HTTP/1.1 200 OK\r\nX-Slow: ';
    let sent = 0;
    const timer = setInterval(() => socket.write(answer[sent++] ?? 'x'), 1_000);
    socket.on('close', () => {
      clearInterval(timer);
      entry.closed = Date.now();
      sockets.delete(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    connections,
    stop: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An endpoint that answers 204 at once and records when each request arrived. */
async function startFast() {
  const arrivals: number[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      arrivals.push(Date.now());
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fast`,
    arrivals,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const DEADLINE_MS = 2_500;

describe.each(DIALECTS)('webhook deliveries of two accounts on %s', (dialect) => {
  let server: TestServer;
  let trickle: Awaited<ReturnType<typeof startTrickle>>;
  let fast: Awaited<ReturnType<typeof startFast>>;

  beforeAll(async () => {
    trickle = await startTrickle();
    fast = await startFast();
    server = await startTestServer(dialect, {
      SEED_STUDIES: '0',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      WEBHOOK_DEADLINE_MS: String(DEADLINE_MS),
      // A failed attempt stays failed for the length of the test: one attempt per delivery.
      WEBHOOK_RETRY_MS: '600000',
    });
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await trickle?.stop();
    await fast?.stop();
  });

  it("one account's trickling endpoint neither holds up another account's delivery nor a slot past the deadline", async () => {
    const demo = await server.api.login('admin@demo.local');
    const partner = await server.api.login('partner@demo.local');
    const demoAccount = await accountIdOf(server.ctx.db, 'Demo Hospital');
    const partnerAccount = await accountIdOf(server.ctx.db, 'Partner Clinic');
    const add = async (sid: string, accountId: string, url: string) => {
      const answer = await server.api.call(
        'webhook/add',
        { account_id: accountId, name: 'Hook', url, event: 'study_shared' },
        sid,
      );
      expect(answer.body.status, JSON.stringify(answer.body)).toBe('OK');
      return await server.ctx.db.kysely
        .selectFrom('webhooks')
        .selectAll()
        .where('uuid', '=', answer.body.webhook.uuid as string)
        .executeTakeFirstOrThrow();
    };
    const slow = await add(demo, demoAccount, trickle.url);
    const quick = await add(partner, partnerAccount, fast.url);
    const webhooks = server.ctx.services.webhooks;

    // Demo Hospital's endpoint gets more deliveries than there are webhook slots.
    const slowDeliveries: string[] = [];
    for (let i = 0; i < 6; i++) slowDeliveries.push(await webhooks.queue(slow, 'study_shared', null, {}));
    await eventually(
      () => Promise.resolve(trickle.connections.length >= 2 || undefined),
      'the slow deliveries under way',
      10_000,
    );

    // Partner Clinic's delivery goes out at once, long before the slow ones give up.
    const queued = Date.now();
    await webhooks.queue(quick, 'study_shared', null, {});
    await eventually(
      () => Promise.resolve(fast.arrivals.length >= 1 || undefined),
      'the fast delivery',
      10_000,
    );
    expect(fast.arrivals[0]! - queued).toBeLessThan(DEADLINE_MS - 500);
    // Meanwhile Demo Hospital holds two slots, its other deliveries waiting for them.
    expect(trickle.connections).toHaveLength(2);
    expect(trickle.connections.every((c) => c.closed === undefined)).toBe(true);

    // Each slow attempt is cut at the deadline and counts as a failed attempt (retried later).
    const first = await eventually(
      () =>
        server.ctx.db.kysely
          .selectFrom('webhook_deliveries')
          .selectAll()
          .where('uuid', '=', slowDeliveries[0]!)
          .where('attempts', '>=', 1)
          .executeTakeFirst(),
      'the first slow attempt to end',
      15_000,
    );
    expect(first).toMatchObject({
      status: 'pending',
      last_error: `no complete answer within ${DEADLINE_MS} ms`,
    });
    const cut = await eventually(
      () => Promise.resolve(trickle.connections.find((c) => c.closed !== undefined)),
      'a slow connection closed',
      5_000,
    );
    expect(cut.closed! - cut.opened).toBeGreaterThanOrEqual(DEADLINE_MS - 100);
    expect(cut.closed! - cut.opened).toBeLessThan(DEADLINE_MS + 3_000);
  }, 60_000);
});
