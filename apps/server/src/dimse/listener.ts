import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { StoreScpConnection } from './scp.js';
import type { ScpDeps } from './scp.js';

/** Open connections the listener holds at most; more are closed as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 200;

/**
 * The DICOM listener: a plain net.Server bound to our host that runs one StoreScpConnection per
 * connection, with Nagle off so each C-STORE answer leaves at once. Each connection has ARTIM and
 * an idle limit (scp.ts); the listener holds at most `maxConnections`, so connections opened and
 * left half-open cannot pile up without bound.
 */
export class DicomListener {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: Omit<ScpDeps, 'track'> & { maxConnections?: number }) {}

  /** Binds host:port (0 picks a free port) and answers the bound port. */
  async start(port: number, host: string): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    server.maxConnections = this.deps.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.deps.log(`DICOM listener error: ${error.message}`));
    this.server = server;
    return (server.address() as AddressInfo).port;
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    new StoreScpConnection(socket, {
      ...this.deps,
      track: (work) => {
        this.inFlight.add(work);
        void work.finally(() => this.inFlight.delete(work));
      },
    });
  }

  /** Stops accepting, drops open associations and waits for stores already being ingested. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await Promise.allSettled([...this.inFlight]);
    await closed;
  }
}
