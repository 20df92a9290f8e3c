import net from 'node:net';
import { normalIpAddress } from './peer-address.js';

/**
 * An HL7 v2 MLLP listener: each message arrives framed as <VT> message <FS><CR> and is answered in
 * the same framing, one at a time per connection and in order. Bounded so a sender cannot hold
 * memory or sockets, nor crowd out another sender: a message past `maxMessageBytes` is refused (AR)
 * and the connection closed; a connection silent for `idleMs` is closed; a message not whole within
 * `messageDeadlineMs` of its first byte closes its connection (trickling bytes does not extend
 * it); past `maxConnections` in all, or `maxConnectionsPerAddress` from one address, new ones are
 * closed at once, so one address can hold only its own few slots.
 */

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

export interface MllpOptions {
  /** Answers one message (its bytes, without framing; `peer` its connection's IP) with its ACK. */
  handle(message: Buffer, peer: string): Promise<string>;
  /** The answer to a message too large to read (an AR acknowledgement). */
  tooLarge(): string;
  maxMessageBytes: number;
  idleMs: number;
  maxConnections: number;
  maxConnectionsPerAddress: number;
  messageDeadlineMs: number;
  log: (line: string) => void;
}

export class MllpListener {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();
  /** Open connections per remote address. */
  private readonly perAddress = new Map<string, number>();

  constructor(private readonly options: MllpOptions) {}

  async start(port: number, host: string): Promise<number> {
    const server = net.createServer((socket) => this.accept(socket));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    return (server.address() as net.AddressInfo).port;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  /** A message too large: answered AR once the ones before it are, then the connection is closed. */
  private refuse(socket: net.Socket, pending: () => Promise<void>): void {
    this.options.log(`HL7 message over ${this.options.maxMessageBytes} bytes refused`);
    socket.removeAllListeners('data');
    socket.pause();
    void pending().then(() => socket.end(frame(this.options.tooLarge())));
  }

  private accept(socket: net.Socket): void {
    const peer = normalIpAddress(socket.remoteAddress);
    const fromPeer = peer === undefined ? 0 : (this.perAddress.get(peer) ?? 0);
    if (
      peer === undefined ||
      this.sockets.size >= this.options.maxConnections ||
      fromPeer >= this.options.maxConnectionsPerAddress
    ) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    this.perAddress.set(peer, fromPeer + 1);
    socket.setNoDelay(true);
    socket.setTimeout(this.options.idleMs, () => socket.destroy());
    // The whole-message deadline: armed by the first byte after a complete message (framed or
    // not, so bytes between frames cannot hold the connection either), cleared when one is whole.
    let deadline: NodeJS.Timeout | undefined;
    const disarm = () => {
      clearTimeout(deadline);
      deadline = undefined;
    };
    const arm = () => {
      deadline ??= setTimeout(() => {
        this.options.log(`HL7 message from ${peer} not complete within ${this.options.messageDeadlineMs} ms`);
        socket.destroy();
      }, this.options.messageDeadlineMs);
    };
    socket.on('close', () => {
      disarm();
      this.sockets.delete(socket);
      const left = (this.perAddress.get(peer) ?? 1) - 1;
      if (left > 0) this.perAddress.set(peer, left);
      else this.perAddress.delete(peer);
    });
    socket.on('error', () => socket.destroy());

    let chunks: Buffer[] = [];
    let size = 0;
    let inMessage = false;
    // Messages are answered in arrival order: each waits for the one before.
    let queue = Promise.resolve();

    const answer = (message: Buffer) => {
      queue = queue.then(async () => {
        let ack: string;
        try {
          ack = await this.options.handle(message, peer);
        } catch (error) {
          this.options.log(
            `HL7 message not handled: ${error instanceof Error ? error.message : String(error)}`,
          );
          socket.destroy();
          return;
        }
        if (!socket.destroyed) socket.write(frame(ack));
      });
    };

    socket.on('data', (data: Buffer) => {
      arm();
      let start = 0;
      for (let i = 0; i < data.length; i++) {
        const byte = data[i]!;
        if (!inMessage) {
          if (byte === VT) {
            inMessage = true;
            start = i + 1;
          }
          // Anything between frames (line ends a sender adds) is skipped.
          continue;
        }
        if (byte === FS && (i + 1 >= data.length || data[i + 1] === CR)) {
          chunks.push(data.subarray(start, i));
          const message = Buffer.concat(chunks);
          chunks = [];
          size = 0;
          inMessage = false;
          disarm();
          if (data[i + 1] === CR) i++;
          if (message.length > this.options.maxMessageBytes) {
            disarm();
            return this.refuse(socket, () => queue);
          }
          answer(message);
        }
      }
      if (inMessage) {
        const rest = data.subarray(start);
        size += rest.length;
        if (size > this.options.maxMessageBytes) {
          disarm();
          return this.refuse(socket, () => queue);
        }
        chunks.push(Buffer.from(rest));
        // A message begun after one completed in this same chunk has its own deadline too.
        arm();
      }
    });
  }
}

function frame(text: string): Buffer {
  return Buffer.concat([Buffer.from([VT]), Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]);
}
