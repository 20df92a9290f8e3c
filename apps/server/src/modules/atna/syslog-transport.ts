import dgram from 'node:dgram';
import fs from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { octetCounted } from './syslog-frame.js';

export type SyslogTransportName = 'tls' | 'tcp' | 'udp';

export interface CollectorConfig {
  host: string;
  port: number;
  transport: SyslogTransportName;
  /** PEM CA certificate(s) the collector's certificate must chain to (TLS); the system's when unset. */
  caFile: string | undefined;
  /** Our client certificate and key, for a collector that asks for one (mutual TLS, IHE ATNA). */
  certFile: string | undefined;
  keyFile: string | undefined;
}

/** One open way to the collector: send() settles once the message is handed to the network. */
export interface SyslogConnection {
  send(message: Buffer): Promise<void>;
  close(): Promise<void>;
}

/** A connection that does not open (or a TLS handshake that does not end) within this fails. */
const CONNECT_TIMEOUT_MS = 10_000;
/** A datagram larger than this is not sent whole by every network (RFC 5426 3.2: 480 to 65,507 bytes). */
const UDP_MAX_BYTES = 65_000;

/**
 * Opens a connection to the collector. TLS (RFC 5425) and TCP (RFC 6587) frame each message by
 * octet counting; UDP (RFC 5426) sends one message per datagram. TLS checks the collector's
 * certificate against `caFile` (or the system's CAs) and its name, and presents ours when given.
 */
export async function openCollector(config: CollectorConfig): Promise<SyslogConnection> {
  if (config.transport === 'udp') return openUdp(config);
  const socket = await connectStream(config);
  return streamConnection(socket);
}

function connectStream(config: CollectorConfig): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket =
      config.transport === 'tls'
        ? tls.connect({
            host: config.host,
            port: config.port,
            servername: net.isIP(config.host) ? undefined : config.host,
            ca: config.caFile ? fs.readFileSync(config.caFile) : undefined,
            cert: config.certFile ? fs.readFileSync(config.certFile) : undefined,
            key: config.keyFile ? fs.readFileSync(config.keyFile) : undefined,
          })
        : net.connect({ host: config.host, port: config.port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(
        new Error(
          `syslog collector ${config.host}:${config.port} did not answer within ${CONNECT_TIMEOUT_MS} ms`,
        ),
      );
    }, CONNECT_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    socket.once(config.transport === 'tls' ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      socket.setNoDelay(true);
      resolve(socket);
    });
  });
}

function streamConnection(socket: net.Socket): SyslogConnection {
  // An error while idle (the collector went away) is kept and reported by the next send.
  let broken: Error | undefined;
  socket.on('error', (error) => (broken ??= error));
  socket.on('close', () => (broken ??= new Error('syslog collector closed the connection')));
  return {
    send(message) {
      if (broken) return Promise.reject(broken);
      return new Promise((resolve, reject) => {
        socket.write(octetCounted(message), (error) =>
          error ? reject(error) : broken ? reject(broken) : resolve(),
        );
      });
    },
    close() {
      return new Promise((resolve) => {
        if (socket.destroyed) return resolve();
        const timer = setTimeout(() => socket.destroy(), 2_000);
        socket.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        socket.end();
      });
    },
  };
}

async function openUdp(config: CollectorConfig): Promise<SyslogConnection> {
  const socket = dgram.createSocket(net.isIPv6(config.host) ? 'udp6' : 'udp4');
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.connect(config.port, config.host, () => {
      socket.off('error', reject);
      resolve();
    });
  });
  return {
    send(message) {
      if (message.length > UDP_MAX_BYTES)
        return Promise.reject(new Error(`audit message of ${message.length} bytes is too large for UDP`));
      return new Promise((resolve, reject) =>
        socket.send(message, (error) => (error ? reject(error) : resolve())),
      );
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
