/**
 * C-STORE of one instance. When the peer accepted the file's own transfer syntax, the dataset's
 * bytes go out as they are read from the file, in PDUs of the peer's maximum length, each write
 * waiting on `drain` (the file is never held whole in memory, never re-encoded). Otherwise the file
 * is transcoded to Explicit VR Little Endian (`imaging/transcode.ts`) if the peer accepted that, or
 * the instance fails with the reason.
 */
import type { Readable } from 'node:stream';
import { toExplicitLittleEndian } from '../../imaging/transcode.js';
import { COMMAND, commandPdu, element, uid, ushortValue } from '../command-set.js';
import { pdvHeader } from './pdv.js';
import type { Connection, Message } from './connection.js';
import { AssociationError } from './errors.js';
import { EXPLICIT_LE } from './identifier.js';
import { splitPart10 } from './part10-stream.js';
import { classifyStatus, describeStatus, STATUS } from './status.js';
import type { AcceptedContext, StoreOutcome, StoreSource } from './types.js';

const PRIORITY_MEDIUM = 0x0000;

export interface StoreDeps {
  connection: Connection;
  contexts: readonly AcceptedContext[];
  messageId: () => number;
  maxPdvData: number;
}

/** An instance ready to go: its context chosen and its dataset's first bytes read. */
export interface PreparedStore {
  source: StoreSource;
  context: AcceptedContext;
  transcoded: boolean;
  dataset: AsyncIterable<Buffer>;
  /** The file's stream, to close when the instance is not sent after all. */
  stream?: Readable | undefined;
}

export function isOutcome(value: PreparedStore | StoreOutcome): value is StoreOutcome {
  return 'category' in value;
}

/** A failure outcome of our own making (nothing sent, or no answer came). */
export function ownFailure(
  source: StoreSource,
  reason: string,
  category: 'failure' | 'retry' = 'failure',
): StoreOutcome {
  return { sopInstanceUid: source.sopInstanceUid, status: STATUS.none, category, reason, transcoded: false };
}

/**
 * Chooses the context (the file's own syntax, else Explicit VR LE through the transcoder) and reads
 * the file up to its dataset. Never rejects: a source that cannot be sent answers its outcome.
 */
export async function prepareStore(
  source: StoreSource,
  contexts: readonly AcceptedContext[],
): Promise<PreparedStore | StoreOutcome> {
  const forClass = contexts.filter((c) => c.abstractSyntax === source.sopClassUid);
  const exact = forClass.find((c) => c.transferSyntax === source.transferSyntax);
  const fallback = forClass.find((c) => c.transferSyntax === EXPLICIT_LE);
  if (!exact && !fallback) {
    return ownFailure(
      source,
      forClass.length === 0
        ? `the peer accepted no presentation context for SOP class ${source.sopClassUid}`
        : `the peer accepts SOP class ${source.sopClassUid} only in ${forClass.map((c) => c.transferSyntax).join(', ')}`,
    );
  }
  let stream: Readable | undefined;
  try {
    if (exact) {
      stream = source.open();
      return { source, context: exact, transcoded: false, dataset: await splitPart10(stream), stream };
    }
    const file = await readAll(source.open());
    let converted: Buffer;
    try {
      converted = await toExplicitLittleEndian(file);
    } catch (error) {
      return ownFailure(
        source,
        `the peer refused ${source.transferSyntax} and the file could not be transcoded to Explicit VR Little Endian: ${message(error)}`,
      );
    }
    const dataset = await splitPart10(toAsync(arrayStream(converted)));
    return { source, context: fallback!, transcoded: true, dataset };
  } catch (error) {
    stream?.destroy();
    return ownFailure(source, `could not read the instance's file: ${message(error)}`);
  }
}

/** Drops a prepared instance that will not be sent. */
export function discardPrepared(prepared: PreparedStore | StoreOutcome): void {
  if (!isOutcome(prepared)) prepared.stream?.destroy();
}

export async function sendStore(source: StoreSource, deps: StoreDeps): Promise<StoreOutcome> {
  const prepared = await prepareStore(source, deps.contexts);
  return isOutcome(prepared) ? prepared : sendPrepared(prepared, deps);
}

/**
 * C-STORE-RQ, the dataset, the response. `onSent` runs once the last byte is written, while the
 * peer stores: the moment to read the next file.
 */
export async function sendPrepared(
  prepared: PreparedStore,
  deps: StoreDeps,
  onSent?: () => void,
): Promise<StoreOutcome> {
  const { source, context, transcoded, dataset, stream } = prepared;
  const messageId = deps.messageId();
  let response: Message | undefined;
  const answered = deps.connection.expect(messageId, deps.connection.timeouts.responseMs, (m) => {
    response = m;
    return true;
  });
  answered.catch(() => undefined);
  try {
    await deps.connection.write([
      commandPdu(context.id, [
        element(0x0002, uid(source.sopClassUid)),
        element(0x0100, ushortValue(COMMAND.cStoreRq)),
        element(0x0110, ushortValue(messageId)),
        element(0x0700, ushortValue(PRIORITY_MEDIUM)),
        element(0x0800, ushortValue(0x0000)),
        element(0x1000, uid(source.sopInstanceUid)),
      ]),
    ]);
    await streamDataset(deps.connection, context.id, dataset, deps.maxPdvData);
    onSent?.();
    await answered;
  } catch (error) {
    stream?.destroy();
    if (error instanceof AssociationError) {
      return {
        ...ownFailure(source, `association lost while sending: ${error.message}`, 'retry'),
        transferSyntax: context.transferSyntax,
        transcoded,
      };
    }
    // The file failed mid-way: the peer holds half a dataset, so the association cannot go on.
    deps.connection.fail(new AssociationError('aborted', `reading the instance failed: ${message(error)}`));
    return ownFailure(source, `could not read the instance's file: ${message(error)}`, 'retry');
  }
  const status = response!.command.status;
  const category = classifyStatus(status);
  return {
    sopInstanceUid: source.sopInstanceUid,
    status,
    category,
    reason:
      category === 'success'
        ? undefined
        : `${describeStatus(status)}${response!.command.errorComment ? `: ${response!.command.errorComment}` : ''}`,
    transferSyntax: context.transferSyntax,
    transcoded,
  };
}

/**
 * Sends the dataset as P-DATA-TF PDUs of up to `maxData` payload bytes. Slices of the read chunks
 * are written as they are, every PDU a chunk completes going out in one batch (one `writev`), and
 * the bytes of an unfinished PDU wait for the next chunk. The last PDU, flagged last-fragment, is
 * the one written when the stream ends (so a dataset that ends on a PDU boundary still has one).
 */
async function streamDataset(
  connection: Connection,
  contextId: number,
  chunks: AsyncIterable<Buffer>,
  maxData: number,
): Promise<void> {
  const pending: Buffer[] = [];
  let pendingLength = 0;
  /** Moves `length` bytes of `pending` into `parts` behind their PDU header. */
  const take = (parts: Buffer[], length: number, last: boolean) => {
    parts.push(pdvHeader(contextId, length, false, last));
    let needed = length;
    while (needed > 0) {
      const head = pending[0]!;
      if (head.length <= needed) {
        parts.push(head);
        pending.shift();
        needed -= head.length;
      } else {
        parts.push(head.subarray(0, needed));
        pending[0] = head.subarray(needed);
        needed = 0;
      }
    }
    pendingLength -= length;
  };
  for await (const chunk of chunks) {
    if (chunk.length === 0) continue;
    pending.push(chunk);
    pendingLength += chunk.length;
    // Strictly more than one PDU's worth: the remainder may be the end, which must be flagged last.
    if (pendingLength <= maxData) continue;
    const parts: Buffer[] = [];
    while (pendingLength > maxData) take(parts, maxData, false);
    await connection.write(parts);
  }
  const parts: Buffer[] = [];
  take(parts, pendingLength, true);
  await connection.write(parts);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

function* arrayStream(bytes: Buffer): Generator<Buffer> {
  // 1 MB slices: the same path as a file read, without copying.
  for (let offset = 0; offset < bytes.length; offset += 1024 * 1024) {
    yield bytes.subarray(offset, offset + 1024 * 1024);
  }
}

async function* toAsync(chunks: Iterable<Buffer>): AsyncGenerator<Buffer> {
  for (const chunk of chunks) yield await Promise.resolve(chunk);
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
