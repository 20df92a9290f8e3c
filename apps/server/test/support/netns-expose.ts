import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { NetworkNamespace } from './netns.js';

/**
 * A TCP port inside a private network namespace that leads to a port on the host's 127.0.0.1: the
 * way back for peers in the namespace (Orthanc's C-MOVE deliveries) to a server the test runs in its
 * own process. A Unix socket crosses the namespace boundary: a small Node process inside accepts TCP
 * on `insidePort` and connects to the socket; the host side accepts on the socket and connects to
 * the host port. Connections arrive from the host's 127.0.0.1. Each side passes FIN and resets on.
 */
export interface Exposed {
  /** The port inside the namespace. */
  insidePort: number;
  close(): Promise<void>;
}

const INSIDE = `
const net = require('node:net');
const [sock, port] = process.argv.slice(1);
net.createServer((tcp) => {
  tcp.setNoDelay(true);
  const unix = net.connect(sock);
  unix.pipe(tcp); tcp.pipe(unix);
  tcp.on('error', () => unix.destroy()); unix.on('error', () => tcp.destroy());
  tcp.on('close', () => unix.destroy()); unix.on('close', () => tcp.destroy());
}).listen(Number(port), '127.0.0.1', () => console.log('ready'));
`;

export async function exposeToNamespace(
  ns: NetworkNamespace,
  hostPort: number,
  insidePort: number,
): Promise<Exposed> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-expose-'));
  const socketPath = path.join(dir, 'expose.sock');
  const sockets = new Set<net.Socket>();
  const server = net.createServer((unix) => {
    const tcp = net.connect({ host: '127.0.0.1', port: hostPort, noDelay: true });
    for (const s of [unix, tcp]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    unix.pipe(tcp);
    tcp.pipe(unix);
    tcp.on('error', () => unix.destroy());
    unix.on('error', () => tcp.destroy());
    tcp.on('close', () => unix.destroy());
    unix.on('close', () => tcp.destroy());
  });
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
  const inside = ns.start('node', ['-e', INSIDE, socketPath, String(insidePort)]);
  await new Promise<void>((resolve, reject) => {
    inside.stdout!.once('data', () => resolve());
    inside.once('exit', (code) => reject(new Error(`the namespace side exited ${code}`)));
  });
  return {
    insidePort,
    async close() {
      inside.kill('SIGTERM');
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
