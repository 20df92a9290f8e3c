/**
 * The requestor's side of association negotiation (PS3.8 9.3.2–9.3.8): the A-ASSOCIATE-RQ we send,
 * the A-ASSOCIATE-AC/RJ and A-ABORT we read, A-RELEASE-RQ/RP. The item layout helpers are the
 * acceptor's (`../association-pdu.ts`).
 */
import {
  associateHead,
  AssociationParseError,
  CONTEXT_RESULT,
  item,
  items,
  pdu,
  uid,
  userInformationItem,
} from '../association-pdu.js';
import { PDU } from '../pdu-reader.js';

export interface RequestedContext {
  /** Odd, 1–255 (PS3.8 9.3.2.2). */
  id: number;
  abstractSyntax: string;
  transferSyntaxes: string[];
}

export function associateRequestPdu(
  calledAe: string,
  callingAe: string,
  contexts: RequestedContext[],
  ourMaxPdu: number,
): Buffer {
  return pdu(
    PDU.associateRq,
    Buffer.concat([
      associateHead(Buffer.concat([aeField(calledAe), aeField(callingAe)])),
      ...contexts.map((context) =>
        item(
          0x20,
          Buffer.concat([
            Buffer.from([context.id, 0, 0, 0]),
            item(0x30, Buffer.from(context.abstractSyntax, 'latin1')),
            ...context.transferSyntaxes.map((ts) => item(0x40, Buffer.from(ts, 'latin1'))),
          ]),
        ),
      ),
      userInformationItem(ourMaxPdu),
    ]),
  );
}

/** AE titles are 16 bytes, space padded; only the default repertoire without backslash (PS3.5 6.2). */
function aeField(title: string): Buffer {
  if (!/^[\x20-\x5b\x5d-\x7e]{1,16}$/.test(title) || title.trim() === '') {
    throw new AssociationParseError(`invalid AE title ${JSON.stringify(title)}`);
  }
  return Buffer.from(title.padEnd(16, ' '), 'latin1');
}

export interface AssociateAccept {
  /** By context id: the result (0 acceptance) and, when accepted, the transfer syntax chosen. */
  contexts: Map<number, { result: number; transferSyntax: string }>;
  /** The acceptor's receive limit (0: unlimited). */
  maxPduLength: number;
}

/** Parses an A-ASSOCIATE-AC body (the bytes after the 6-byte PDU header). */
export function parseAssociateAccept(body: Buffer): AssociateAccept {
  if (body.length < 68) throw new AssociationParseError('A-ASSOCIATE-AC shorter than its fixed fields');
  const accept: AssociateAccept = { contexts: new Map(), maxPduLength: 0 };
  for (const entry of items(body, 68)) {
    if (entry.type === 0x21) {
      if (entry.value.length < 4) throw new AssociationParseError('presentation context item too short');
      let transferSyntax = '';
      for (const sub of items(entry.value, 4)) if (sub.type === 0x40) transferSyntax = uid(sub.value);
      accept.contexts.set(entry.value.readUInt8(0), { result: entry.value.readUInt8(2), transferSyntax });
    } else if (entry.type === 0x50) {
      for (const sub of items(entry.value, 0)) {
        if (sub.type === 0x51 && sub.value.length >= 4) accept.maxPduLength = sub.value.readUInt32BE(0);
      }
    }
  }
  return accept;
}

/** A-ASSOCIATE-RJ: result, source, reason. */
export function parseAssociateReject(body: Buffer): { result: number; source: number; reason: number } {
  return { result: body[1] ?? 0, source: body[2] ?? 0, reason: body[3] ?? 0 };
}

export function releaseRequestPdu(): Buffer {
  return pdu(PDU.releaseRq, Buffer.alloc(4));
}

/** A-ABORT from the service user (source 0). */
export function userAbortPdu(): Buffer {
  return pdu(PDU.abort, Buffer.from([0, 0, 0, 0]));
}

/** Text for a received A-ABORT body (PS3.8 9.3.8). */
export function describeAbort(body: Buffer): string {
  const source = body[2] ?? 0;
  const reason = body[3] ?? 0;
  if (source === 0) return 'peer aborted the association';
  const reasons = [
    'reason not specified',
    'unrecognized PDU',
    'unexpected PDU',
    'reserved',
    'unrecognized PDU parameter',
    'unexpected PDU parameter',
    'invalid PDU parameter value',
  ];
  return `peer's provider aborted the association: ${reasons[reason] ?? `reason ${reason}`}`;
}

export { CONTEXT_RESULT };
