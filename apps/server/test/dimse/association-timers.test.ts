/**
 * Half-open DICOM connections are not held (issue 14, item 9): ARTIM is a deadline from the
 * connection to a complete A-ASSOCIATE-RQ that trickled bytes do not extend, an established
 * association that goes quiet is aborted, and the listener holds a bounded number of connections.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFICATION } from '../../src/dimse/sop-classes.js';
import type { TestServer } from '../support/test-server.js';
import { startTestServer } from '../support/test-server.js';
import { RawScu } from './raw-scu.js';

const ARTIM_MS = 600;
const IDLE_MS = 800;

/** A raw connection to the listener that records what it got and when it was closed. */
function open(
  port: number,
): Promise<{ socket: net.Socket; received: Buffer[]; closedAfter: Promise<number> }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const received: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => resolve({ socket, received, closedAfter }));
    const closedAfter = new Promise<number>((done) =>
      socket.on('close', () => done(performance.now() - started)),
    );
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    socket.on('error', () => undefined);
    socket.once('error', reject);
  });
}

/** Resolves with the value, or 'still open' after `ms`. */
const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

describe('DICOM association timers and the connection limit', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', {
      DICOM_ARTIM_MS: String(ARTIM_MS),
      DICOM_IDLE_MS: String(IDLE_MS),
      DICOM_MAX_CONNECTIONS: '3',
    });
  });
  afterAll(() => server?.stop());

  it('closes a connection that never asks for an association after ARTIM', async () => {
    const { closedAfter } = await open(server.dicomPort);
    const after = await within(closedAfter, ARTIM_MS + 2_000);
    expect(after).not.toBe('still open');
    expect(after as number).toBeGreaterThanOrEqual(ARTIM_MS - 50);
  });

  it('closes after ARTIM even while the peer trickles a request one byte at a time', async () => {
    const { socket, received, closedAfter } = await open(server.dicomPort);
    // An A-ASSOCIATE-RQ header announcing 200 bytes, then a byte every 100 ms, never completing it.
    const header = Buffer.from([0x01, 0x00, 0x00, 0x00, 0x00, 0xc8]);
    let sent = 0;
    const trickle = setInterval(() => {
      if (!socket.destroyed)
        socket.write(sent < header.length ? header.subarray(sent, sent + 1) : Buffer.from([0x20]));
      sent++;
    }, 100);
    try {
      const after = await within(closedAfter, ARTIM_MS + 2_000);
      expect(after).not.toBe('still open');
      // An A-ABORT went out first.
      expect(Buffer.concat(received)[0]).toBe(0x07);
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('aborts an established association that sends nothing for the idle limit', async () => {
    const scu = await RawScu.connect(server.dicomPort);
    expect(await scu.associate('DEMO_GATEWAY', 'INBOX', [VERIFICATION])).toBe(0x02);
    const started = performance.now();
    const closed = await within(scu.closed, IDLE_MS + 2_000);
    expect(closed).not.toBe('still open');
    expect(performance.now() - started).toBeGreaterThanOrEqual(IDLE_MS - 50);
  });

  it('holds at most DICOM_MAX_CONNECTIONS connections at once', async () => {
    const held = await Promise.all([1, 2, 3].map(() => open(server.dicomPort)));
    const extra = await open(server.dicomPort);
    expect(await within(extra.closedAfter, 500)).not.toBe('still open');
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((c) => c.closedAfter));
    // Room again once they are gone.
    const next = await open(server.dicomPort);
    expect(await within(next.closedAfter, 200)).toBe('still open');
    next.socket.destroy();
  });
});
