import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A TCP service that is not DICOM: it greets every connection with a banner, as SSH or SMTP does. */
async function bannerServer(): Promise<net.Server> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('SSH-2.0-OpenSSH_9.6\r\n');
  });
  // Closing also drops the connections still open, which would otherwise hold close() back.
  server.on('close', () => sockets.forEach((s) => s.destroy()));
  const close = server.close.bind(server);
  server.close = (callback) => {
    sockets.forEach((s) => s.destroy());
    return close(callback);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/**
 * Decision 0054 (F10 of issue 27): a destination may not be aimed at an internal address unless
 * the operator allows it (DICOM_ALLOWED_HOSTS; this server allows 127.0.0.1 only), checked when it
 * is saved and at every connection; and an echo that got no DICOM answer says only that, whatever
 * was at the port.
 */
describe.each(DIALECTS)('where destinations may point, on %s', (dialect) => {
  let server: TestServer;
  let banner: net.Server;
  let admin: string;
  let account: string;
  const log: string[] = [];

  beforeAll(async () => {
    server = await startTestServer(dialect, { DICOM_ALLOWED_HOSTS: '127.0.0.1' }, (line) => log.push(line));
    banner = await bannerServer();
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
  });
  afterAll(async () => {
    await new Promise((resolve) => banner?.close(resolve));
    await server?.stop();
  });

  const counts = async () => {
    const db = server.ctx.db.kysely;
    return {
      destinations: (await db.selectFrom('destinations').select('uuid').execute()).length,
      nodes: (await db.selectFrom('dicom_nodes').select('uuid').execute()).length,
    };
  };
  const fields = (aetitle: string, address: string, port: number | string) => ({
    account_id: account,
    name: aetitle,
    aetitle,
    address,
    port: String(port),
  });

  it('refuses a destination at a loopback, private or link-local address the operator did not allow, and changes nothing', async () => {
    const before = await counts();
    for (const address of [
      '10.0.0.5',
      '192.168.1.20',
      '172.16.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '127.0.0.2',
    ]) {
      const answer = await server.api.call('destination/add', fields('INTERNAL', address, 104), admin);
      expect([answer.status, answer.body.error_type, answer.body.error_subtype], address).toEqual([
        412,
        'INVALID_FIELD',
        'address',
      ]);
    }
    expect(await counts()).toEqual(before);

    // Allowed: 127.0.0.1 (the operator's choice), and an edit to an internal address is refused too.
    const added = await server.api.call('destination/add', fields('ALLOWED', '127.0.0.1', 104), admin);
    expect(added.body).toMatchObject({ status: 'OK', address: '127.0.0.1' });
    const moved = await server.api.call(
      'destination/set',
      { uuid: added.body.uuid, address: '10.0.0.5' },
      admin,
    );
    expect([moved.body.error_type, moved.body.error_subtype]).toEqual(['INVALID_FIELD', 'address']);
    expect((await server.api.call('destination/get', { uuid: added.body.uuid }, admin)).body.address).toBe(
      '127.0.0.1',
    );
    await server.api.call('destination/delete', { uuid: added.body.uuid }, admin);
  });

  it('answers "no DICOM answer" alike for a closed port and for a non-DICOM service with a banner', async () => {
    const closed = (
      await server.api.call('destination/add', fields('CLOSED', '127.0.0.1', await closedPort()), admin)
    ).body.uuid as string;
    const chatty = (
      await server.api.call(
        'destination/add',
        fields('BANNER', '127.0.0.1', (banner.address() as net.AddressInfo).port),
        admin,
      )
    ).body.uuid as string;
    const echo = async (uuid: string) => {
      const { status, ok, ms, reason } = (await server.api.call('destination/echo', { uuid }, admin)).body;
      return { status, ok, ms, reason };
    };
    const fromClosed = await echo(closed);
    const fromBanner = await echo(chatty);
    expect(fromClosed).toEqual({ status: 'OK', ok: false, ms: null, reason: 'no DICOM answer' });
    expect(fromBanner).toEqual(fromClosed);
    // The stored last echo says the same; what really happened is in the server's log only.
    for (const uuid of [closed, chatty]) {
      const got = (await server.api.call('destination/get', { uuid }, admin)).body;
      expect(got.last_echo).toMatchObject({ ok: false, ms: null, reason: 'no DICOM answer' });
    }
    expect(log.some((line) => line.includes('CLOSED@127.0.0.1') && /ECONNREFUSED/.test(line))).toBe(true);
    await server.api.call('destination/delete', { uuid: closed }, admin);
    await server.api.call('destination/delete', { uuid: chatty }, admin);
  });

  it('checks the address again when it connects: a destination now aimed inside is not reached', async () => {
    const uuid = (await server.api.call('destination/add', fields('REBOUND', '127.0.0.1', 104), admin)).body
      .uuid as string;
    // As if its host name now resolved to the cloud metadata service (DNS rebinding).
    await server.ctx.db.kysely
      .updateTable('destinations')
      .set({ address: '169.254.169.254' })
      .where('uuid', '=', uuid)
      .execute();
    const started = Date.now();
    const answer = (await server.api.call('destination/echo', { uuid }, admin)).body;
    expect(answer).toMatchObject({ ok: false, reason: 'no DICOM answer' });
    // Refused before any connection (a connect to that address would wait for its timeout).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(
      log.some((line) => line.includes('REBOUND@169.254.169.254') && /link-local or private/.test(line)),
    ).toBe(true);
    await server.api.call('destination/delete', { uuid }, admin);
  });
});
