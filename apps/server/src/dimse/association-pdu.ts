import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from '../dicom/write.js';
import { PDU } from './pdu-reader.js';

/** The DICOM application context name, the only one there is (PS3.7 A.2.1). */
export const APPLICATION_CONTEXT = '1.2.840.10008.3.1.1.1';

export interface ProposedContext {
  id: number;
  abstractSyntax: string;
  transferSyntaxes: string[];
}

export interface AssociateRequest {
  calledAe: string;
  callingAe: string;
  applicationContext: string;
  contexts: ProposedContext[];
  /** The requestor's receive limit: our P-DATA-TF PDUs must not be longer (0: unlimited). */
  maxPduLength: number;
  /** Called and calling AE fields as sent (16 bytes each), echoed in the A-ASSOCIATE-AC. */
  aeFields: Buffer;
  /** SCP/SCU Role Selection items (PS3.7 D.3.3.4): a C-GET requestor asks to be the storage SCP. */
  roles: RoleSelection[];
}

export interface RoleSelection {
  sopClassUid: string;
  scu: boolean;
  scp: boolean;
}

export class AssociationParseError extends Error {}

/** Parses an A-ASSOCIATE-RQ body (PS3.8 9.3.2), the bytes after the 6-byte PDU header. */
export function parseAssociateRequest(body: Buffer): AssociateRequest {
  if (body.length < 68) throw new AssociationParseError('A-ASSOCIATE-RQ shorter than its fixed fields');
  const request: AssociateRequest = {
    calledAe: aeTitle(body.subarray(4, 20)),
    callingAe: aeTitle(body.subarray(20, 36)),
    applicationContext: '',
    contexts: [],
    maxPduLength: 0,
    aeFields: Buffer.from(body.subarray(4, 36)),
    roles: [],
  };
  for (const item of items(body, 68)) {
    if (item.type === 0x10) request.applicationContext = uid(item.value);
    else if (item.type === 0x20) request.contexts.push(presentationContext(item.value));
    else if (item.type === 0x50) {
      for (const sub of items(item.value, 0)) {
        if (sub.type === 0x51 && sub.value.length >= 4) request.maxPduLength = sub.value.readUInt32BE(0);
        if (sub.type === 0x54 && sub.value.length >= 2) {
          const length = sub.value.readUInt16BE(0);
          if (sub.value.length < 4 + length) throw new AssociationParseError('role selection item too short');
          request.roles.push({
            sopClassUid: uid(sub.value.subarray(2, 2 + length)),
            scu: sub.value.readUInt8(2 + length) === 1,
            scp: sub.value.readUInt8(3 + length) === 1,
          });
        }
      }
    }
  }
  return request;
}

function presentationContext(value: Buffer): ProposedContext {
  if (value.length < 4) throw new AssociationParseError('presentation context item too short');
  const context: ProposedContext = { id: value.readUInt8(0), abstractSyntax: '', transferSyntaxes: [] };
  for (const sub of items(value, 4)) {
    if (sub.type === 0x30) context.abstractSyntax = uid(sub.value);
    else if (sub.type === 0x40) context.transferSyntaxes.push(uid(sub.value));
  }
  return context;
}

/** Type (1), reserved (1), length (2, big endian), value: the item layout of every A-ASSOCIATE field. */
export function* items(buffer: Buffer, start: number): Generator<{ type: number; value: Buffer }> {
  let offset = start;
  while (offset < buffer.length) {
    if (offset + 4 > buffer.length) throw new AssociationParseError('truncated item header');
    const type = buffer.readUInt8(offset);
    const length = buffer.readUInt16BE(offset + 2);
    const end = offset + 4 + length;
    if (end > buffer.length) throw new AssociationParseError(`item 0x${type.toString(16)} overruns its PDU`);
    yield { type, value: buffer.subarray(offset + 4, end) };
    offset = end;
  }
}

export function aeTitle(field: Buffer): string {
  return field.toString('latin1').trim();
}

export function uid(value: Buffer): string {
  return value.toString('latin1').replace(/[\0 ]+$/, '');
}

/** Presentation context results (PS3.8 9.3.3.2). */
export const CONTEXT_RESULT = {
  acceptance: 0,
  userRejection: 1,
  abstractSyntaxNotSupported: 3,
  transferSyntaxesNotSupported: 4,
} as const;

export interface ContextAnswer {
  id: number;
  result: number;
  /** The accepted transfer syntax; for a rejected context any value (the requestor ignores it). */
  transferSyntax: string;
}

/** Encodes the A-ASSOCIATE-AC for a request, with our receive limit and implementation identity. */
export function associateAcceptPdu(
  request: AssociateRequest,
  answers: ContextAnswer[],
  ourMaxPdu: number,
  roles: RoleSelection[] = [],
): Buffer {
  const body = Buffer.concat([
    associateHead(request.aeFields),
    ...answers.map((answer) => {
      const head = Buffer.from([answer.id, 0, answer.result, 0]);
      return item(0x21, Buffer.concat([head, item(0x40, Buffer.from(answer.transferSyntax, 'latin1'))]));
    }),
    userInformationItem(ourMaxPdu, roles.map(roleItem)),
  ]);
  return pdu(PDU.associateAc, body);
}

/**
 * What A-ASSOCIATE-RQ and -AC both start with (PS3.8 9.3.2, 9.3.3): the 68 fixed bytes (protocol
 * version, then the called and calling AE fields, 32 bytes) and the application context item.
 */
export function associateHead(aeFields: Buffer): Buffer {
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(0x0001, 0); // protocol version
  aeFields.copy(fixed, 4);
  return Buffer.concat([fixed, item(0x10, Buffer.from(APPLICATION_CONTEXT, 'latin1'))]);
}

/**
 * The User Information item both sides send in A-ASSOCIATE-RQ and -AC (PS3.8 9.3.2.3): our receive
 * limit (0x51), implementation class UID (0x52) and version name (0x55).
 */
export function userInformationItem(ourMaxPdu: number, extra: Buffer[] = []): Buffer {
  const maxLength = Buffer.alloc(4);
  maxLength.writeUInt32BE(ourMaxPdu);
  return item(
    0x50,
    Buffer.concat([
      item(0x51, maxLength),
      item(0x52, Buffer.from(IMPLEMENTATION_CLASS_UID, 'latin1')),
      item(0x55, Buffer.from(IMPLEMENTATION_VERSION_NAME, 'latin1')),
      ...extra,
    ]),
  );
}

/** An SCP/SCU Role Selection sub-item (0x54) as the acceptor answers it. */
function roleItem(role: RoleSelection): Buffer {
  const sop = Buffer.from(role.sopClassUid, 'latin1');
  const head = Buffer.alloc(2);
  head.writeUInt16BE(sop.length);
  return item(0x54, Buffer.concat([head, sop, Buffer.from([role.scu ? 1 : 0, role.scp ? 1 : 0])]));
}

/** A-ASSOCIATE-RJ reasons we send (PS3.8 9.3.4). */
export const REJECT = {
  permanent: 1,
  transient: 2,
  sourceServiceUser: 1,
  sourceServiceProviderAcse: 2,
  sourceServiceProviderPresentation: 3,
  reasonNoReason: 1,
  reasonApplicationContextNotSupported: 2,
  reasonCallingAeNotRecognized: 3,
  reasonCalledAeNotRecognized: 7,
  reasonTemporaryCongestion: 1,
} as const;

export function associateRejectPdu(result: number, source: number, reason: number): Buffer {
  return pdu(PDU.associateRj, Buffer.from([0, result, source, reason]));
}

export function releaseResponsePdu(): Buffer {
  return pdu(PDU.releaseRp, Buffer.alloc(4));
}

/** A-ABORT from the service provider (source 2) with "unexpected PDU" or "unrecognized PDU parameter". */
export function abortPdu(reason = 0): Buffer {
  return pdu(PDU.abort, Buffer.from([0, 0, 2, reason]));
}

export function item(type: number, value: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt8(type, 0);
  head.writeUInt16BE(value.length, 2);
  return Buffer.concat([head, value]);
}

export function pdu(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(6);
  head.writeUInt8(type, 0);
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}
