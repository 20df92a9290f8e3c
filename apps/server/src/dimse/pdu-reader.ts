/**
 * Upper-layer PDU framing (PS3.8 9.3), incremental and copy-free for P-DATA-TF. Socket chunks go in;
 * out come whole control PDUs (association, release, abort: small) and, for P-DATA-TF, the payload
 * of each presentation data value as slices of the socket chunks themselves, so a dataset travels
 * from the network to its sink without being re-assembled per PDU.
 */
export const PDU = {
  associateRq: 0x01,
  associateAc: 0x02,
  associateRj: 0x03,
  pDataTf: 0x04,
  releaseRq: 0x05,
  releaseRp: 0x06,
  abort: 0x07,
} as const;

export interface PduHandler {
  /** A complete non-P-DATA PDU: its type and its body (the bytes after the 6-byte header). */
  controlPdu(type: number, body: Buffer): void;
  /**
   * Part of a PDV's payload, in order. `slice` is a view of a socket chunk; Node allocates a fresh
   * buffer for every read, so a sink may keep the view instead of copying it.
   */
  pdvData(contextId: number, isCommand: boolean, slice: Buffer): void;
  /** The PDV item ended; `isLast` is its message control header's last-fragment bit. */
  pdvEnd(contextId: number, isCommand: boolean, isLast: boolean): void;
  /** The peer broke the framing; the association must be aborted. */
  protocolError(reason: string): void;
}

/** Control PDUs are small (an A-ASSOCIATE-RQ with every storage class proposed is well under 64 KB). */
const MAX_CONTROL_PDU = 1024 * 1024;

type State = 'pduHeader' | 'controlBody' | 'pdvHeader' | 'pdvData';

export class PduReader {
  private state: State = 'pduHeader';
  /** Bytes of a header (PDU: 6, PDV item: 6) or control body gathered across chunks. */
  private scratch: Buffer[] = [];
  private scratchLength = 0;
  private need = 6;
  private pduType = 0;
  /** P-DATA-TF bytes still to come in the current PDU. */
  private pduRemaining = 0;
  /** Payload bytes still to come in the current PDV item. */
  private pdvRemaining = 0;
  private contextId = 0;
  private control = 0;
  private failed = false;

  constructor(
    private readonly handler: PduHandler,
    /** Our maximum P-DATA-TF length as announced (0: unlimited). */
    private readonly maxPduLength: number,
  ) {}

  push(chunk: Buffer): void {
    let offset = 0;
    while (offset < chunk.length && !this.failed) {
      if (this.state === 'pdvData') {
        const take = Math.min(this.pdvRemaining, chunk.length - offset);
        this.handler.pdvData(
          this.contextId,
          (this.control & 0x01) !== 0,
          chunk.subarray(offset, offset + take),
        );
        offset += take;
        this.pdvRemaining -= take;
        this.pduRemaining -= take;
        if (this.pdvRemaining === 0) this.endPdv();
        continue;
      }
      // Headers and control bodies: gather `need` bytes, then act on them.
      const take = Math.min(this.need - this.scratchLength, chunk.length - offset);
      this.scratch.push(chunk.subarray(offset, offset + take));
      this.scratchLength += take;
      offset += take;
      if (this.scratchLength < this.need) break;
      const bytes =
        this.scratch.length === 1 ? this.scratch[0]! : Buffer.concat(this.scratch, this.scratchLength);
      this.scratch = [];
      this.scratchLength = 0;
      this.gathered(bytes);
    }
  }

  private gathered(bytes: Buffer): void {
    switch (this.state) {
      case 'pduHeader': {
        this.pduType = bytes.readUInt8(0);
        const length = bytes.readUInt32BE(2);
        if (this.pduType === PDU.pDataTf) {
          if (this.maxPduLength > 0 && length > this.maxPduLength) {
            return this.fail(`P-DATA-TF of ${length} bytes exceeds the negotiated ${this.maxPduLength}`);
          }
          if (length < 6) return this.fail('P-DATA-TF without a PDV item');
          this.pduRemaining = length;
          return this.expect('pdvHeader', 6);
        }
        if (this.pduType < PDU.associateRq || this.pduType > PDU.abort) {
          return this.fail(`unknown PDU type 0x${this.pduType.toString(16)}`);
        }
        if (length > MAX_CONTROL_PDU) return this.fail(`control PDU of ${length} bytes`);
        if (length === 0) {
          this.expect('pduHeader', 6);
          return this.handler.controlPdu(this.pduType, Buffer.alloc(0));
        }
        return this.expect('controlBody', length);
      }
      case 'controlBody':
        this.expect('pduHeader', 6);
        return this.handler.controlPdu(this.pduType, bytes);
      case 'pdvHeader': {
        const itemLength = bytes.readUInt32BE(0);
        this.pduRemaining -= 6;
        if (itemLength < 2 || itemLength - 2 > this.pduRemaining) {
          return this.fail(`PDV item length ${itemLength} does not fit its PDU`);
        }
        this.contextId = bytes.readUInt8(4);
        this.control = bytes.readUInt8(5);
        this.pdvRemaining = itemLength - 2;
        this.state = 'pdvData';
        if (this.pdvRemaining === 0) this.endPdv();
        return;
      }
      default:
        return this.fail('reader out of step');
    }
  }

  private endPdv(): void {
    const isCommand = (this.control & 0x01) !== 0;
    const isLast = (this.control & 0x02) !== 0;
    if (this.pduRemaining === 0) this.expect('pduHeader', 6);
    else if (this.pduRemaining < 6) return this.fail('trailing bytes after the last PDV item');
    else this.expect('pdvHeader', 6);
    this.handler.pdvEnd(this.contextId, isCommand, isLast);
  }

  private expect(state: State, need: number): void {
    this.state = state;
    this.need = need;
  }

  private fail(reason: string): void {
    this.failed = true;
    this.handler.protocolError(reason);
  }
}
