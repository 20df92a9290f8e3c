import net from 'node:net';

/**
 * An HL7 v2 MLLP listener: each message arrives framed as <VT> message <FS><CR> and is answered in
 * the same framing, one at a time per connection and in order. Bounded so a sender cannot hold
 * memory or sockets: a message past `maxMessageBytes` is refused (AR) and the connection closed; a
 * connection silent for `idleMs` is closed; past `maxConnections` new ones are closed at once.
 */

const VT = 0x0b;
const FS = 0x1c;
const CR = 0x0d;

export interface MllpOptions {
  /** Answers one message (its bytes, without framing) with the acknowledgement to send back. */
  handle(message: Buffer): Promise<string>;
  /** The answer to a message too large to read (an AR acknowledgement). */
  tooLarge(): string;
  maxMessageBytes: number;
  idleMs: number;
  maxConnections: number;
  log: (line: string) => void;
}

export class MllpListener {
  private server: net.Server | undefined;
  private readonly sockets = new Set<net.Socket>();

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
    if (this.sockets.size >= this.options.maxConnections) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.setNoDelay(true);
    socket.setTimeout(this.options.idleMs, () => socket.destroy());
    socket.on('close', () => this.sockets.delete(socket));
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
          ack = await this.options.handle(message);
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
          if (data[i + 1] === CR) i++;
          if (message.length > this.options.maxMessageBytes) return this.refuse(socket, () => queue);
          answer(message);
        }
      }
      if (inMessage) {
        const rest = data.subarray(start);
        size += rest.length;
        if (size > this.options.maxMessageBytes) return this.refuse(socket, () => queue);
        chunks.push(Buffer.from(rest));
      }
    });
  }
}

function frame(text: string): Buffer {
  return Buffer.concat([Buffer.from([VT]), Buffer.from(text, 'utf8'), Buffer.from([FS, CR])]);
}
