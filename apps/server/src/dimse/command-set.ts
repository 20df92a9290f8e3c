/**
 * DIMSE command sets (PS3.7 9.3, E.1): always Implicit VR Little Endian, group 0000 only. We read the
 * few fields the listener and the client need and encode commands directly, without a general
 * dataset library on the hot path.
 */
export const COMMAND = {
  cStoreRq: 0x0001,
  cStoreRsp: 0x8001,
  cGetRq: 0x0010,
  cGetRsp: 0x8010,
  cFindRq: 0x0020,
  cFindRsp: 0x8020,
  cMoveRq: 0x0021,
  cMoveRsp: 0x8021,
  cEchoRq: 0x0030,
  cEchoRsp: 0x8030,
  cCancelRq: 0x0fff,
  nEventReportRq: 0x0100,
  nEventReportRsp: 0x8100,
  nActionRq: 0x0130,
  nActionRsp: 0x8130,
} as const;

/** Command Data Set Type (0000,0800): this value means "no dataset follows", any other that one does. */
export const NO_DATA_SET = 0x0101;

export interface CommandSet {
  commandField: number;
  messageId: number;
  affectedSopClassUid: string;
  affectedSopInstanceUid: string;
  hasDataset: boolean;
  /** Responses: Message ID Being Responded To (0000,0120), else -1. */
  messageIdBeingRespondedTo: number;
  /** Responses: Status (0000,0900), else -1. */
  status: number;
  /** Error Comment (0000,0902). */
  errorComment?: string;
  /** C-MOVE responses: Number of Remaining/Completed/Failed/Warning Sub-operations (0000,1020–1023). */
  remaining?: number;
  completed?: number;
  failed?: number;
  warning?: number;
  /** C-STORE requests of a C-MOVE sub-operation: Move Originator AE Title and Message ID (0000,1030/1031). */
  moveOriginatorAe?: string;
  moveOriginatorMessageId?: number;
  /** C-MOVE requests: Move Destination (0000,0600), the AE title the instances go to. */
  moveDestination?: string;
  /** N-EVENT-REPORT: Event Type ID (0000,1002). */
  eventTypeId?: number;
  /** N-ACTION: Action Type ID (0000,1008). */
  actionTypeId?: number;
}

export class CommandParseError extends Error {}

/** A request's command set (the listener's side): Command Field and Message ID required. */
export function parseCommandSet(bytes: Buffer): CommandSet {
  const command = readCommandSet(bytes);
  // C-CANCEL-RQ names the request it cancels (Message ID Being Responded To) and has no Message ID.
  if (command.commandField === COMMAND.cCancelRq && command.messageIdBeingRespondedTo >= 0) return command;
  if (command.commandField < 0 || command.messageId < 0) {
    throw new CommandParseError('command set without Command Field or Message ID');
  }
  return command;
}

/** A command set received by the listener: a request, or (C-GET sub-operations) a C-STORE response. */
export function parseIncomingCommandSet(bytes: Buffer): CommandSet {
  const command = readCommandSet(bytes);
  if (command.commandField === COMMAND.cStoreRsp) {
    if (command.messageIdBeingRespondedTo < 0 || command.status < 0)
      throw new CommandParseError('C-STORE-RSP without Message ID Being Responded To or Status');
    return command;
  }
  return parseCommandSet(bytes);
}

/**
 * A response's command set (the client's side): Command Field, Message ID Being Responded To and
 * Status required; or the one request a peer sends on our association, N-EVENT-REPORT-RQ (storage
 * commitment's report), with its Message ID.
 */
export function parseResponseCommandSet(bytes: Buffer): CommandSet {
  const command = readCommandSet(bytes);
  if (command.commandField === COMMAND.nEventReportRq && command.messageId >= 0) return command;
  if (command.commandField < 0 || command.messageIdBeingRespondedTo < 0 || command.status < 0) {
    throw new CommandParseError('response without Command Field, Message ID Being Responded To or Status');
  }
  return command;
}

function readCommandSet(bytes: Buffer): CommandSet {
  const command: CommandSet = {
    commandField: -1,
    messageId: -1,
    affectedSopClassUid: '',
    affectedSopInstanceUid: '',
    hasDataset: false,
    messageIdBeingRespondedTo: -1,
    status: -1,
  };
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 8 > bytes.length) throw new CommandParseError('truncated command element header');
    const group = bytes.readUInt16LE(offset);
    const element = bytes.readUInt16LE(offset + 2);
    const length = bytes.readUInt32LE(offset + 4);
    const start = offset + 8;
    const end = start + length;
    if (group !== 0x0000)
      throw new CommandParseError(`element (${hex(group)},${hex(element)}) in a command set`);
    if (end > bytes.length)
      throw new CommandParseError(`command element (0000,${hex(element)}) overruns the set`);
    const value = bytes.subarray(start, end);
    switch (element) {
      case 0x0002:
        command.affectedSopClassUid = text(value);
        break;
      case 0x0100:
        command.commandField = ushort(value);
        break;
      case 0x0110:
        command.messageId = ushort(value);
        break;
      case 0x0600:
        command.moveDestination = text(value);
        break;
      case 0x0800:
        command.hasDataset = ushort(value) !== NO_DATA_SET;
        break;
      case 0x1000:
        command.affectedSopInstanceUid = text(value);
        break;
      case 0x0120:
        command.messageIdBeingRespondedTo = ushort(value);
        break;
      case 0x0900:
        command.status = ushort(value);
        break;
      case 0x0902:
        command.errorComment = text(value);
        break;
      case 0x1020:
        command.remaining = ushort(value);
        break;
      case 0x1021:
        command.completed = ushort(value);
        break;
      case 0x1022:
        command.failed = ushort(value);
        break;
      case 0x1023:
        command.warning = ushort(value);
        break;
      case 0x1030:
        command.moveOriginatorAe = text(value);
        break;
      case 0x1031:
        command.moveOriginatorMessageId = ushort(value);
        break;
      case 0x1002:
        command.eventTypeId = ushort(value);
        break;
      case 0x1008:
        command.actionTypeId = ushort(value);
        break;
      default:
        break;
    }
    offset = end;
  }
  return command;
}

function ushort(value: Buffer): number {
  if (value.length !== 2) throw new CommandParseError('US value of the wrong length');
  return value.readUInt16LE(0);
}

function text(value: Buffer): string {
  return value.toString('latin1').replace(/[\0 ]+$/, '');
}

function hex(n: number): string {
  return n.toString(16).padStart(4, '0');
}

export interface ResponseFields {
  presentationContextId: number;
  commandField: number;
  messageIdBeingRespondedTo: number;
  affectedSopClassUid: string;
  affectedSopInstanceUid?: string | undefined;
  status: number;
  errorComment?: string | undefined;
  /** N-EVENT-REPORT-RSP: the Event Type ID answered. */
  eventTypeId?: number | undefined;
}

/** A response command set in one P-DATA-TF PDU (one PDV, command, last fragment). */
export function responsePdu(f: ResponseFields): Buffer {
  const elements = [
    element(0x0002, uid(f.affectedSopClassUid)),
    element(0x0100, ushortValue(f.commandField)),
    element(0x0120, ushortValue(f.messageIdBeingRespondedTo)),
    element(0x0800, ushortValue(NO_DATA_SET)),
    element(0x0900, ushortValue(f.status)),
    ...(f.errorComment ? [element(0x0902, printable(f.errorComment.slice(0, 64)))] : []),
    ...(f.affectedSopInstanceUid ? [element(0x1000, uid(f.affectedSopInstanceUid))] : []),
    ...(f.eventTypeId !== undefined ? [element(0x1002, ushortValue(f.eventTypeId))] : []),
  ];
  return commandPdu(f.presentationContextId, elements);
}

/** A command (its elements in tag order, without the group length) in one P-DATA-TF PDU. */
export function commandPdu(presentationContextId: number, elements: Buffer[]): Buffer {
  const body = Buffer.concat(elements);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(body.length);
  const command = Buffer.concat([element(0x0000, groupLength), body]);

  const pdu = Buffer.alloc(12 + command.length);
  pdu.writeUInt8(0x04, 0); // P-DATA-TF
  pdu.writeUInt32BE(6 + command.length, 2);
  pdu.writeUInt32BE(2 + command.length, 6); // PDV item length
  pdu.writeUInt8(presentationContextId, 10);
  pdu.writeUInt8(0x03, 11); // command fragment, last fragment
  command.copy(pdu, 12);
  return pdu;
}

export function element(elementNumber: number, value: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16LE(0x0000, 0);
  header.writeUInt16LE(elementNumber, 2);
  header.writeUInt32LE(value.length, 4);
  return Buffer.concat([header, value]);
}

export function ushortValue(value: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(value);
  return b;
}

export function uid(value: string): Buffer {
  const clean = value.replace(/[\0 ]+$/, '');
  return Buffer.from(clean.length % 2 ? `${clean}\0` : clean, 'latin1');
}

export function printable(value: string): Buffer {
  const clean = value.replace(/[^\x20-\x7e]/g, '?');
  return Buffer.from(clean.length % 2 ? `${clean} ` : clean, 'latin1');
}
