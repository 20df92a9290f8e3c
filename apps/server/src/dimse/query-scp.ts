/**
 * The Query/Retrieve SCP half of an association (C-FIND, C-MOVE; C-GET in get-scp.ts): decodes the
 * request identifier, asks the `QueryRetrieveHandler` (a module) for matches or instances, and writes
 * the pending and final responses, waiting for the socket to drain between them so a large answer is
 * streamed at the peer's pace, never gathered. A C-CANCEL stops the operation of the Message ID it
 * names at the next match or sub-operation. See README.md beside this file.
 */
import { openAssociation, storageContexts } from './client/index.js';
import { datasetPdus } from './client/pdv.js';
import { decodeIdentifier, encodeIdentifier } from './client/identifier.js';
import type { DicomAttributes, QueryKeys, StoreSource } from './client/types.js';
import { COMMAND, commandPdu, element, NO_DATA_SET, printable, uid, ushortValue } from './command-set.js';
import type { CommandSet } from './command-set.js';
import { QueryRefused } from './query-retrieve.js';
import type { QueryCaller, QueryModel, QueryRequest, QueryRetrieveHandler } from './query-retrieve.js';

/** Statuses of Query/Retrieve responses (PS3.4 C.4). */
export const QR_STATUS = {
  success: 0x0000,
  pending: 0xff00,
  cancel: 0xfe00,
  subOperationsWithFailures: 0xb000,
  unableToPerformSubOperations: 0xa702,
  moveDestinationUnknown: 0xa801,
  identifierDoesNotMatch: 0xa900,
  unableToProcess: 0xc000,
} as const;

/** The largest request identifier read: a query's keys are a few hundred bytes. */
export const MAX_IDENTIFIER_BYTES = 64 * 1024;

/** What the SCP needs of its association. */
export interface QueryLink {
  /** Writes and resolves once the socket drained (or at once when it did not fill up). */
  write(chunks: Buffer[]): Promise<void>;
  /** Payload bytes per PDV within the peer's maximum PDU length. */
  maxPdvData: number;
  /** False once the association is over: stop working for it. */
  open(): boolean;
  ourAeTitle: string;
  log(line: string): void;
}

export interface QueryResponse {
  contextId: number;
  commandField: number;
  messageId: number;
  sopClassUid: string;
  status: number;
  errorComment?: string | undefined;
  counts?: { remaining?: number; completed: number; failed: number; warning: number } | undefined;
  /** The response identifier and the transfer syntax to encode it in. */
  identifier?: { keys: QueryKeys; transferSyntax: string } | undefined;
}

/** A Query/Retrieve response command (and its identifier) as P-DATA-TF PDUs. */
export function queryResponsePdus(r: QueryResponse, maxPdvData: number): Buffer[] {
  const identifier = r.identifier
    ? encodeIdentifier(r.identifier.keys, r.identifier.transferSyntax)
    : undefined;
  const counts = r.counts;
  const command = commandPdu(r.contextId, [
    element(0x0002, uid(r.sopClassUid)),
    element(0x0100, ushortValue(r.commandField)),
    element(0x0120, ushortValue(r.messageId)),
    element(0x0800, ushortValue(identifier ? 0x0000 : NO_DATA_SET)),
    element(0x0900, ushortValue(r.status)),
    ...(r.errorComment ? [element(0x0902, printable(r.errorComment.slice(0, 64)))] : []),
    ...(counts?.remaining !== undefined ? [element(0x1020, ushortValue(counts.remaining))] : []),
    ...(counts ? [element(0x1021, ushortValue(counts.completed))] : []),
    ...(counts ? [element(0x1022, ushortValue(counts.failed))] : []),
    ...(counts ? [element(0x1023, ushortValue(counts.warning))] : []),
  ]);
  return identifier ? [command, ...datasetPdus(r.contextId, identifier, maxPdvData)] : [command];
}

/** One operation running on the association, by its Message ID. */
export interface Running {
  cancelled: boolean;
}

export class QueryScp {
  private readonly running = new Map<number, Running>();
  /** Runs a C-GET's sub-operations on this association (get-scp.ts), set by the association. */
  getter:
    | ((base: Omit<QueryResponse, 'status'>, request: QueryRequest, running: Running) => Promise<void>)
    | undefined;

  constructor(
    private readonly handler: QueryRetrieveHandler,
    private readonly caller: QueryCaller,
    private readonly link: QueryLink,
  ) {}

  /** C-CANCEL-RQ: the operation it names stops at its next step (none running: nothing to do). */
  cancel(messageId: number): void {
    const running = this.running.get(messageId);
    if (running) running.cancelled = true;
  }

  /** Runs one C-FIND or C-MOVE request whose identifier arrived whole; never rejects. */
  async run(
    contextId: number,
    context: { abstractSyntax: string; transferSyntax: string },
    model: QueryModel,
    command: CommandSet,
    identifierBytes: Buffer,
  ): Promise<void> {
    const running: Running = { cancelled: false };
    this.running.set(command.messageId, running);
    const base = {
      contextId,
      commandField: command.commandField | 0x8000,
      messageId: command.messageId,
      sopClassUid: command.affectedSopClassUid || context.abstractSyntax,
    };
    try {
      let identifier: DicomAttributes;
      try {
        identifier = decodeIdentifier(identifierBytes, context.transferSyntax);
      } catch (error) {
        throw new QueryRefused(QR_STATUS.identifierDoesNotMatch, `unreadable identifier: ${String(error)}`);
      }
      const level = typeof identifier.QueryRetrieveLevel === 'string' ? identifier.QueryRetrieveLevel : '';
      const request: QueryRequest = { model, level: level.trim().toUpperCase(), identifier };
      if (command.commandField === COMMAND.cFindRq) {
        await this.find(base, context.transferSyntax, request, running);
      } else if (command.commandField === COMMAND.cGetRq) {
        if (!this.getter) throw new QueryRefused(QR_STATUS.unableToProcess, 'C-GET is not offered here');
        await this.getter(base, request, running);
      } else {
        await this.move(base, command.moveDestination ?? '', request, running);
      }
    } catch (error) {
      const refused = error instanceof QueryRefused;
      if (!refused) this.link.log(`${this.caller.aeTitle} query failed: ${String(error)}`);
      await this.respond({
        ...base,
        status: refused ? error.status : QR_STATUS.unableToProcess,
        errorComment: refused ? error.message : 'the query could not be run',
      });
    } finally {
      this.running.delete(command.messageId);
    }
  }

  private async find(
    base: Omit<QueryResponse, 'status'>,
    transferSyntax: string,
    request: QueryRequest,
    running: Running,
  ): Promise<void> {
    let sent = 0;
    for await (const keys of this.handler.find(this.caller, request)) {
      if (running.cancelled || !this.link.open()) break;
      await this.respond({ ...base, status: QR_STATUS.pending, identifier: { keys, transferSyntax } });
      // A socket with room never makes us wait, and an index that answers at once (SQLite) never
      // yields either: let the peer's bytes (its C-CANCEL) in now and then.
      if (++sent % 32 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    await this.respond({ ...base, status: running.cancelled ? QR_STATUS.cancel : QR_STATUS.success });
  }

  /**
   * C-MOVE: every instance asked for goes to the destination node over one association of our
   * client, one pending response with the counts after each; C-CANCEL stops before the next one.
   */
  private async move(
    base: Omit<QueryResponse, 'status'>,
    destinationAe: string,
    request: QueryRequest,
    running: Running,
  ): Promise<void> {
    const destination = await this.handler.moveDestination(this.caller, destinationAe.trim());
    if (!destination) {
      throw new QueryRefused(QR_STATUS.moveDestinationUnknown, `move destination ${destinationAe} unknown`);
    }
    const sources = await this.handler.retrieve(this.caller, request, 'move');
    await this.subOperations(base, sources, running, async (send) => {
      const association = await openAssociation(
        { host: destination.host, port: destination.port, aeTitle: destination.aeTitle },
        {
          callingAe: this.link.ourAeTitle,
          contexts: storageContexts(sources),
          timeouts: { connectMs: 10_000, associateMs: 30_000 },
        },
      );
      try {
        await send((source) => association.store(source));
      } finally {
        if (association.usable) await association.release();
      }
    });
  }

  /**
   * Runs the C-STORE sub-operations of a C-MOVE or C-GET with pending responses between them and the
   * final response after: success when all were stored, B000 when some failed, A702 when none could
   * be, FE00 when cancelled (with what remained).
   */
  async subOperations(
    base: Omit<QueryResponse, 'status'>,
    sources: StoreSource[],
    running: Running,
    session: (
      send: (store: (s: StoreSource) => Promise<{ category: string }>) => Promise<void>,
    ) => Promise<void>,
  ): Promise<void> {
    const counts = { remaining: sources.length, completed: 0, failed: 0, warning: 0 };
    if (sources.length > 0) {
      try {
        await session(async (store) => {
          for (const source of sources) {
            if (running.cancelled || !this.link.open()) return;
            const outcome = await store(source);
            counts.remaining--;
            if (outcome.category === 'success') counts.completed++;
            else if (outcome.category === 'warning') counts.warning++;
            else counts.failed++;
            if (counts.remaining > 0) await this.respond({ ...base, status: QR_STATUS.pending, counts });
          }
        });
      } catch (error) {
        this.link.log(`${this.caller.aeTitle} sub-operations failed: ${String(error)}`);
        counts.failed += counts.remaining;
        counts.remaining = 0;
        const { remaining: _left, ...done } = counts;
        await this.respond({
          ...base,
          status: QR_STATUS.unableToPerformSubOperations,
          errorComment: 'the destination could not be reached',
          counts: done,
        });
        return;
      }
    }
    const { remaining, ...done } = counts;
    if (running.cancelled && remaining > 0) {
      await this.respond({ ...base, status: QR_STATUS.cancel, counts });
      return;
    }
    const status =
      counts.failed + counts.warning === 0
        ? QR_STATUS.success
        : counts.completed + counts.warning === 0
          ? QR_STATUS.unableToPerformSubOperations
          : QR_STATUS.subOperationsWithFailures;
    await this.respond({ ...base, status, counts: done });
  }

  async respond(response: QueryResponse): Promise<void> {
    if (!this.link.open()) return;
    await this.link.write(queryResponsePdus(response, this.link.maxPdvData));
  }

  /** Registers an operation run from outside (C-GET) so C-CANCEL reaches it. */
  track(messageId: number): Running {
    const running: Running = { cancelled: false };
    this.running.set(messageId, running);
    return running;
  }

  untrack(messageId: number): void {
    this.running.delete(messageId);
  }
}
