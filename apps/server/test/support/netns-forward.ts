import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { NetworkNamespace } from './netns.js';

/**
 * A TCP port on the host's 127.0.0.1 that leads to a port inside a private network namespace, so
 * code running in the test process (the DICOM client) can reach peers that must stay in the
 * namespace (Orthanc, dcmtk's servers bind every interface). A Unix socket crosses the namespace
 * boundary: the host side accepts TCP and connects to it; a small Node process inside the
 * namespace accepts on it and connects to the peer. Each side passes FIN and resets on, so a peer
 * that dies drops the client's connection as it would directly.
 */
export interface Forward {
  port: number;
  close(): Promise<void>;
}

const INSIDE = `
const net = require('node:net');
const [sock, port] = process.argv.slice(1);
net.createServer((unix) => {
  const tcp = net.connect({ host: '127.0.0.1', port: Number(port), noDelay: true });
  unix.pipe(tcp); tcp.pipe(unix);
  tcp.on('error', () => unix.destroy()); unix.on('error', () => tcp.destroy());
  tcp.on('close', () => unix.destroy()); unix.on('close', () => tcp.destroy());
}).listen(sock);
`;

export async function forwardIntoNamespace(ns: NetworkNamespace, targetPort: number): Promise<Forward> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-fwd-'));
  const socketPath = path.join(dir, 'fwd.sock');
  const inside = ns.start('node', ['-e', INSIDE, socketPath, String(targetPort)]);
  // Node's start takes a while on a loaded machine: up to 30 s.
  for (let i = 0; !fs.existsSync(socketPath); i++) {
    if (i === 600) throw new Error('the namespace forwarder did not start within 30 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    client.setNoDelay(true);
    const unix = net.connect(socketPath);
    sockets.add(client).add(unix);
    client.pipe(unix);
    unix.pipe(client);
    client.on('error', () => unix.destroy());
    unix.on('error', () => client.destroy());
    client.on('close', () => {
      unix.destroy();
      sockets.delete(client);
    });
    unix.on('close', () => {
      client.destroy();
      sockets.delete(unix);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      inside.kill('SIGTERM');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
