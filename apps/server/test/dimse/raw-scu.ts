import net from 'node:net';

/**
 * A deliberately low-level storage SCU for tests: it writes PDUs exactly as the test lays them out
 * (fragment sizes, several PDVs in one PDU, odd socket write boundaries, an abort mid-instance),
 * which dcmtk and dcmjs-dimse give no control over.
 */
export const EXPLICIT_LE = '1.2.840.10008.1.2.1';

export interface Pdv {
  contextId?: number;
  command: boolean;
  last: boolean;
  data: Buffer;
}

export class RawScu {
  private received = Buffer.alloc(0);
  private waiters: (() => void)[] = [];
  readonly closed: Promise<void>;

  private constructor(private readonly socket: net.Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      for (const wake of this.waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) => socket.on('close', () => resolve()));
    socket.on('close', () => {
      for (const wake of this.waiters.splice(0)) wake();
    });
    socket.on('error', () => undefined);
  }

  static connect(port: number): Promise<RawScu> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawScu(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends an A-ASSOCIATE-RQ with one context per abstract syntax; answers the A-ASSOCIATE-AC/RJ type. */
  async associate(callingAe: string, calledAe: string, abstractSyntaxes: string[], syntax = EXPLICIT_LE) {
    const fixed = Buffer.alloc(68);
    fixed.writeUInt16BE(1, 0);
    fixed.write(calledAe.padEnd(16), 4, 'latin1');
    fixed.write(callingAe.padEnd(16), 20, 'latin1');
    const maxPdu = Buffer.alloc(4);
    maxPdu.writeUInt32BE(65536);
    const body = Buffer.concat([
      fixed,
      item(0x10, Buffer.from('1.2.840.10008.3.1.1.1')),
      ...abstractSyntaxes.map((abstract, index) =>
        item(
          0x20,
          Buffer.concat([
            Buffer.from([index * 2 + 1, 0, 0, 0]),
            item(0x30, Buffer.from(abstract)),
            item(0x40, Buffer.from(syntax)),
          ]),
        ),
      ),
      item(0x50, Buffer.concat([item(0x51, maxPdu), item(0x52, Buffer.from('1.2.3.4'))])),
    ]);
    this.socket.write(pdu(0x01, body));
    const answer = await this.readPdu();
    return answer.type;
  }

  /** Writes PDUs, each a list of PDVs, optionally cutting the byte stream into writes of `slice` bytes. */
  async sendPdus(pdus: Pdv[][], slice = 0): Promise<void> {
    const bytes = Buffer.concat(pdus.map((pdvs) => pDataTf(pdvs)));
    if (!slice) {
      this.socket.write(bytes);
      return;
    }
    for (let offset = 0; offset < bytes.length; offset += slice) {
      this.socket.write(bytes.subarray(offset, offset + slice));
      // Let each piece arrive as its own chunk.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** Reads the next C-STORE-RSP and answers its status. */
  async storeStatus(): Promise<number> {
    const answer = await this.readPdu();
    if (answer.type !== 0x04) throw new Error(`expected P-DATA-TF, got PDU 0x${answer.type.toString(16)}`);
    const command = answer.body.subarray(6);
    for (let offset = 0; offset < command.length;) {
      const element = command.readUInt16LE(offset + 2);
      const length = command.readUInt32LE(offset + 4);
      if (element === 0x0900) return command.readUInt16LE(offset + 8);
      offset += 8 + length;
    }
    throw new Error('no status in the response');
  }

  async release(): Promise<number> {
    this.socket.write(pdu(0x05, Buffer.alloc(4)));
    return (await this.readPdu()).type;
  }

  abort(): void {
    this.socket.write(pdu(0x07, Buffer.from([0, 0, 0, 0])));
    this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  private async readPdu(): Promise<{ type: number; body: Buffer }> {
    for (;;) {
      if (this.received.length >= 6) {
        const length = this.received.readUInt32BE(2);
        if (this.received.length >= 6 + length) {
          const type = this.received.readUInt8(0);
          const body = this.received.subarray(6, 6 + length);
          this.received = this.received.subarray(6 + length);
          return { type, body };
        }
      }
      if (this.socket.destroyed) throw new Error('connection closed');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }
}

/** The C-STORE-RQ command set (Implicit VR Little Endian) for one instance. */
export function storeCommand(sopClassUid: string, sopInstanceUid: string, messageId = 1): Buffer {
  const elements = [
    element(0x0002, uid(sopClassUid)),
    element(0x0100, ushort(0x0001)),
    element(0x0110, ushort(messageId)),
    element(0x0700, ushort(0)),
    element(0x0800, ushort(0x0000)),
    element(0x1000, uid(sopInstanceUid)),
  ];
  const body = Buffer.concat(elements);
  const length = Buffer.alloc(4);
  length.writeUInt32LE(body.length);
  return Buffer.concat([element(0x0000, length), body]);
}

/** Splits bytes into `count` nearly equal pieces. */
export function split(bytes: Buffer, count: number): Buffer[] {
  const size = Math.ceil(bytes.length / count);
  const pieces: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size)
    pieces.push(bytes.subarray(offset, offset + size));
  return pieces;
}

/** The dataset of a Part-10 file: what follows its File Meta Information group. */
export function datasetOf(file: Uint8Array): Buffer {
  const bytes = Buffer.from(file);
  return bytes.subarray(132 + 12 + bytes.readUInt32LE(140));
}

function pDataTf(pdvs: Pdv[]): Buffer {
  return pdu(
    0x04,
    Buffer.concat(
      pdvs.map((pdv) => {
        const head = Buffer.alloc(6);
        head.writeUInt32BE(pdv.data.length + 2, 0);
        head.writeUInt8(pdv.contextId ?? 1, 4);
        head.writeUInt8((pdv.command ? 1 : 0) | (pdv.last ? 2 : 0), 5);
        return Buffer.concat([head, pdv.data]);
      }),
    ),
  );
}

function pdu(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}

function item(type: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt8(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

function element(elementNumber: number, value: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16LE(elementNumber, 2);
  head.writeUInt32LE(value.length, 4);
  return Buffer.concat([head, value]);
}

function ushort(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}

function uid(value: string): Buffer {
  return Buffer.from(value.length % 2 ? `${value}\0` : value, 'latin1');
}
