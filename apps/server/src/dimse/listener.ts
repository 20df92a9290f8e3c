import net from 'node:net';
import tls from 'node:tls';
import type { AddressInfo } from 'node:net';
import { StoreScpConnection } from './scp.js';
import type { ScpDeps } from './scp.js';

/** Open connections the listener holds at most; more are closed as they arrive. */
export const DEFAULT_MAX_CONNECTIONS = 200;

/** What the TLS listener presents and, with `ca`, asks of its peers (PEM text). */
export interface DicomTlsOptions {
  cert: string | Buffer;
  key: string | Buffer;
  /** When set, a peer must present a certificate these CAs signed; else no client certificate is asked. */
  ca?: string | Buffer | undefined;
}

/**
 * The DICOM listener: a plain net.Server bound to our host that runs one StoreScpConnection per
 * connection, with Nagle off so each C-STORE answer leaves at once, and optionally a TLS server
 * beside it (`startTls`) whose decrypted sockets go to the very same StoreScpConnection: one
 * association code path for both. Each connection has ARTIM and an idle limit (scp.ts); each server
 * holds at most `maxConnections`, so connections opened and left half-open cannot pile up.
 */
export class DicomListener {
  private readonly servers: net.Server[] = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly inFlight = new Set<Promise<unknown>>();

  constructor(private readonly deps: Omit<ScpDeps, 'track'> & { maxConnections?: number }) {}

  /** Binds host:port (0 picks a free port) and answers the bound port. */
  async start(port: number, host: string): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    return this.listen(server, port, host, 'DICOM listener');
  }

  /**
   * Binds the TLS listener on host:port: TLS 1.2 or later only (an older hello, a plain DICOM
   * A-ASSOCIATE-RQ, a certificate the CA did not sign are refused in the handshake and logged with
   * OpenSSL's reason); the handshake must end within ARTIM.
   */
  async startTls(port: number, host: string, options: DicomTlsOptions): Promise<number> {
    const checkPeers = options.ca !== undefined;
    const server = tls.createServer(
      {
        cert: options.cert,
        key: options.key,
        ca: options.ca,
        minVersion: 'TLSv1.2',
        requestCert: checkPeers,
        // Checked below instead of inside OpenSSL: Node drops a TLS 1.3 peer whose certificate fails
        // without telling why, and the log must say why.
        rejectUnauthorized: false,
        handshakeTimeout: this.deps.timeouts?.artimMs ?? 30_000,
      },
      (socket) => {
        if (checkPeers && !socket.authorized) {
          const reason = String(socket.authorizationError ?? 'no certificate');
          this.deps.log(
            `DICOM TLS connection from ${socket.remoteAddress ?? '?'} refused: certificate ${reason}`,
          );
          socket.destroy();
          return;
        }
        this.accept(socket);
      },
    );
    // Nagle off from the first byte: the handshake's small records must not wait either.
    server.on('connection', (socket: net.Socket) => socket.setNoDelay(true));
    server.on('tlsClientError', (error: Error & { code?: string }, socket: tls.TLSSocket) => {
      this.deps.log(
        `DICOM TLS connection from ${socket.remoteAddress ?? '?'} refused: ${error.code ?? 'ERROR'} ${error.message}`,
      );
    });
    return this.listen(server, port, host, 'DICOM TLS listener');
  }

  private async listen(server: net.Server, port: number, host: string, name: string): Promise<number> {
    server.maxConnections = this.deps.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    server.on('error', (error) => this.deps.log(`${name} error: ${error.message}`));
    this.servers.push(server);
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
    const servers = this.servers.splice(0);
    if (!servers.length) return;
    const closed = servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve())));
    for (const socket of this.sockets) socket.destroy();
    await Promise.allSettled([...this.inFlight]);
    await Promise.all(closed);
  }
}
