/**
 * A client association and its DIMSE operations: C-ECHO, C-FIND (with C-CANCEL), C-MOVE and
 * C-STORE. One operation at a time (asynchronous operations are not negotiated): calls queue on a
 * lock. See README.md in this folder for the protocol notes.
 */
import {
  COMMAND,
  commandPdu,
  element,
  NO_DATA_SET,
  printable,
  responsePdu,
  uid,
  ushortValue,
} from '../command-set.js';
import {
  COMMITMENT_ACTION_TYPE,
  commitmentRequestDataset,
  parseCommitmentReport,
  STORAGE_COMMITMENT_CLASS,
  STORAGE_COMMITMENT_INSTANCE,
} from '../storage-commitment.js';
import type { CommitmentItem, CommitmentReport, ReportAnswer } from '../storage-commitment.js';
import { VERIFICATION } from '../sop-classes.js';
import { CONTEXT_RESULT } from './associate-pdu.js';
import type { RequestedContext } from './associate-pdu.js';
import { FIND_SOP_CLASS, MOVE_SOP_CLASS, uniqueProposals, VERIFICATION_CONTEXT } from './contexts.js';
import { Connection } from './connection.js';
import type { Message } from './connection.js';
import { AssociationError, DimseError } from './errors.js';
import { decodeIdentifier, encodeIdentifier } from './identifier.js';
import { classifyStatus } from './status.js';
import { datasetPdus } from './pdv.js';
import { discardPrepared, isOutcome, ownFailure, prepareStore, sendPrepared, sendStore } from './store.js';
import type { PreparedStore, StoreDeps } from './store.js';
import type {
  AcceptedContext,
  AssociationOptions,
  CommitOptions,
  DicomAttributes,
  FindOptions,
  FindOutcome,
  FindRequest,
  FindStream,
  MoveOptions,
  MoveProgress,
  MoveRequest,
  MoveResult,
  Peer,
  QueryKeys,
  ScuAssociation,
  StoreOutcome,
  StoreSource,
  Timeouts,
} from './types.js';
import { DEFAULT_TIMEOUTS } from './types.js';

export const DEFAULT_FIND_CAP = 500;
/** Priority (0000,0700): MEDIUM. */
const PRIORITY_MEDIUM = 0x0000;

/** Opens an association: connect, A-ASSOCIATE-RQ, AC. Throws AssociationError (connect, rejected, timeout…). */
export async function openAssociation(peer: Peer, options: AssociationOptions): Promise<ScuAssociation> {
  const timeouts: Timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  const proposals = uniqueProposals(options.contexts ?? [VERIFICATION_CONTEXT]);
  if (proposals.length === 0 || proposals.length > 128) {
    throw new AssociationError(
      'no-context',
      `between 1 and 128 presentation contexts, not ${proposals.length}`,
    );
  }
  const requested: RequestedContext[] = proposals.map((p, i) => ({ id: 2 * i + 1, ...p }));
  const { connection, accept } = await Connection.open(peer, options.callingAe, requested, timeouts);
  const contexts: AcceptedContext[] = [];
  for (const context of requested) {
    const answer = accept.contexts.get(context.id);
    if (answer?.result !== CONTEXT_RESULT.acceptance) continue;
    // An acceptor must choose one of the proposed syntaxes; one that does not is not trusted.
    if (!context.transferSyntaxes.includes(answer.transferSyntax)) continue;
    contexts.push({
      id: context.id,
      abstractSyntax: context.abstractSyntax,
      transferSyntax: answer.transferSyntax,
    });
  }
  return new Association(peer, options.callingAe, connection, contexts, accept.maxPduLength);
}

class Association implements ScuAssociation {
  private nextMessageId = 1;
  private lock: Promise<void> = Promise.resolve();

  constructor(
    readonly peer: Peer,
    readonly callingAe: string,
    private readonly connection: Connection,
    readonly contexts: readonly AcceptedContext[],
    readonly peerMaxPduLength: number,
  ) {}

  get usable(): boolean {
    return this.connection.usable;
  }

  get closedReason(): string | undefined {
    return this.connection.closedReason;
  }

  // --- C-ECHO -----------------------------------------------------------------------------------

  echo(): Promise<number> {
    return this.exclusive(async () => {
      const context = this.contextFor(VERIFICATION, 'C-ECHO');
      const { status, comment } = await this.singleResponse(context, (messageId) => [
        element(0x0002, uid(VERIFICATION)),
        element(0x0100, ushortValue(COMMAND.cEchoRq)),
        element(0x0110, ushortValue(messageId)),
        element(0x0800, ushortValue(NO_DATA_SET)),
      ]);
      if (classifyStatus(status) !== 'success') throw new DimseError(status, comment);
      return status;
    });
  }

  /**
   * Sends one request (its command, then its dataset if any) and waits for its one response within
   * the response timeout: the shape of C-ECHO and N-ACTION.
   */
  private async singleResponse(
    context: AcceptedContext,
    command: (messageId: number) => Buffer[],
    dataset?: Buffer,
  ): Promise<{ status: number; comment: string | undefined }> {
    const messageId = this.messageId();
    let status = -1;
    let comment: string | undefined;
    const answered = this.connection.expect(messageId, this.connection.timeouts.responseMs, (m) => {
      status = m.command.status;
      comment = m.command.errorComment;
      return true;
    });
    await this.connection.write([
      commandPdu(context.id, command(messageId)),
      ...(dataset ? datasetPdus(context.id, dataset, this.maxPdvData()) : []),
    ]);
    await answered;
    return { status, comment };
  }

  // --- C-FIND -----------------------------------------------------------------------------------

  find(request: FindRequest, options: FindOptions = {}): FindStream {
    let outcome: FindOutcome | undefined;
    const run = (): AsyncGenerator<DicomAttributes> =>
      this.findResults(request, options, (o) => {
        outcome = o;
      });
    return {
      get outcome() {
        return outcome;
      },
      [Symbol.asyncIterator]: run,
    };
  }

  private async *findResults(
    request: FindRequest,
    options: FindOptions,
    setOutcome: (outcome: FindOutcome) => void,
  ): AsyncGenerator<DicomAttributes> {
    const cap = options.cap ?? 500;
    const signal = options.signal;
    signal?.throwIfAborted();
    const unlock = await this.acquire();
    const sopClass = FIND_SOP_CLASS[request.model];
    let cancelSent = false;
    let finished = false;
    let onAbort: (() => void) | undefined;
    let cancel = () => {};
    let answered: Promise<void> = Promise.resolve();
    try {
      const context = this.contextFor(sopClass, 'C-FIND');
      const keys: QueryKeys =
        request.model === 'worklist' ? request.keys : { ...request.keys, QueryRetrieveLevel: request.level };
      const identifier = encodeIdentifier(keys, context.transferSyntax);
      const messageId = this.messageId();

      const queue: DicomAttributes[] = [];
      let final: Message | undefined;
      let failure: Error | undefined;
      let wake: (() => void) | undefined;
      let count = 0;
      let truncated = false;
      cancel = () => {
        if (cancelSent || finished || !this.connection.usable) return;
        cancelSent = true;
        void this.connection.write([cancelPdu(context.id, messageId)]).catch(() => undefined);
      };
      answered = this.connection.expect(messageId, this.connection.timeouts.responseMs, (m) => {
        if (classifyStatus(m.command.status) === 'pending') {
          // Past the cap (or once cancelled) results are dropped while the peer winds down.
          if (count + queue.length >= cap) {
            truncated = true;
            cancel();
          } else if (!cancelSent && m.dataset) {
            queue.push(decodeIdentifier(m.dataset, context.transferSyntax));
          }
          wake?.();
          return false;
        }
        final = m;
        wake?.();
        return true;
      });
      answered.catch((error: unknown) => {
        // The connection rejects with AssociationError only.
        failure = error as Error;
        wake?.();
      });
      onAbort = () => {
        cancel();
        wake?.();
      };
      signal?.addEventListener('abort', onAbort, { once: true });

      await this.connection.write([
        commandPdu(context.id, [
          element(0x0002, uid(sopClass)),
          element(0x0100, ushortValue(COMMAND.cFindRq)),
          element(0x0110, ushortValue(messageId)),
          element(0x0700, ushortValue(PRIORITY_MEDIUM)),
          element(0x0800, ushortValue(0x0000)),
        ]),
        ...datasetPdus(context.id, identifier, this.maxPdvData()),
      ]);

      for (;;) {
        if (signal?.aborted) {
          cancel();
          // Wait for the peer's final answer so the association stays usable, then give up.
          await answered.catch(() => undefined);
          signal.throwIfAborted();
        }
        const next = queue.shift();
        if (next) {
          count++;
          yield next;
          continue;
        }
        if (failure) throw failure;
        if (final) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      finished = true;
      const status = final.command.status;
      const category = classifyStatus(status);
      if (category !== 'success' && category !== 'warning' && category !== 'cancel') {
        throw new DimseError(status, final.command.errorComment);
      }
      setOutcome({ status, count, truncated: truncated || (cancelSent && category === 'cancel') });
    } finally {
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      // A caller that stops iterating early (break, throw) leaves the peer still answering:
      // cancel and wait for its final response before the association takes another request.
      if (!finished) {
        cancel();
        await answered.catch(() => undefined);
      }
      unlock();
    }
  }

  // --- C-MOVE -----------------------------------------------------------------------------------

  move(request: MoveRequest, destinationAe: string, options: MoveOptions = {}): Promise<MoveResult> {
    return this.exclusive(async () => {
      const { signal, onProgress } = options;
      signal?.throwIfAborted();
      const sopClass = MOVE_SOP_CLASS[request.model];
      const context = this.contextFor(sopClass, 'C-MOVE');
      const identifier = encodeIdentifier(
        { ...request.keys, QueryRetrieveLevel: request.level },
        context.transferSyntax,
      );
      const messageId = this.messageId();
      options.onRequest?.(messageId);
      let final: Message | undefined;
      const answered = this.connection.expect(messageId, this.connection.timeouts.moveResponseMs, (m) => {
        const progress: MoveProgress = {
          remaining: m.command.remaining,
          completed: m.command.completed,
          failed: m.command.failed,
          warning: m.command.warning,
        };
        onProgress?.(progress);
        if (classifyStatus(m.command.status) === 'pending') return false;
        final = m;
        return true;
      });
      let cancelSent = false;
      const onAbort = () => {
        if (cancelSent || !this.connection.usable) return;
        cancelSent = true;
        void this.connection.write([cancelPdu(context.id, messageId)]).catch(() => undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      try {
        await this.connection.write([
          commandPdu(context.id, [
            element(0x0002, uid(sopClass)),
            element(0x0100, ushortValue(COMMAND.cMoveRq)),
            element(0x0110, ushortValue(messageId)),
            element(0x0600, aeValue(destinationAe)),
            element(0x0700, ushortValue(PRIORITY_MEDIUM)),
            element(0x0800, ushortValue(0x0000)),
          ]),
          ...datasetPdus(context.id, identifier, this.maxPdvData()),
        ]);
        await answered;
      } finally {
        signal?.removeEventListener('abort', onAbort);
      }
      const response = final!;
      const status = response.command.status;
      let failedInstances: string[] = [];
      if (response.dataset && response.dataset.length > 0) {
        try {
          const list = decodeIdentifier(response.dataset, context.transferSyntax)['FailedSOPInstanceUIDList'];
          if (typeof list === 'string' && list) failedInstances = list.split('\\');
        } catch {
          // The counts and status say what matters; an unreadable list is left out.
        }
      }
      return {
        status,
        category: classifyStatus(status),
        errorComment: response.command.errorComment,
        remaining: response.command.remaining,
        completed: response.command.completed,
        failed: response.command.failed,
        warning: response.command.warning,
        failedInstances,
      };
    });
  }

  // --- C-STORE ----------------------------------------------------------------------------------

  store(source: StoreSource): Promise<StoreOutcome> {
    return this.exclusive(() => sendStore(source, this.storeDeps())).catch((error: unknown): StoreOutcome =>
      ownFailure(source, message(error), 'retry'),
    );
  }

  async storeAll(
    sources: readonly StoreSource[],
    options: { onOutcome?: (outcome: StoreOutcome, index: number) => void } = {},
  ): Promise<StoreOutcome[]> {
    const outcomes: StoreOutcome[] = [];
    const report = (outcome: StoreOutcome) => {
      options.onOutcome?.(outcome, outcomes.length);
      outcomes.push(outcome);
    };
    let unlock: () => void;
    try {
      unlock = await this.acquire();
    } catch (error) {
      for (const source of sources) report(ownFailure(source, message(error), 'retry'));
      return outcomes;
    }
    try {
      const deps = this.storeDeps();
      let next: Promise<PreparedStore | StoreOutcome> | undefined =
        sources.length > 0 ? prepareStore(sources[0]!, this.contexts) : undefined;
      for (let i = 0; i < sources.length; i++) {
        const lost = () =>
          ownFailure(sources[i]!, this.connection.closedReason ?? 'association closed', 'retry');
        const current = next ? await next : lost();
        next = undefined;
        // The next file is read while the peer stores this one; none once the association is gone.
        const prefetch = () => {
          if (!next && i + 1 < sources.length && this.connection.usable) {
            next = prepareStore(sources[i + 1]!, this.contexts);
          }
        };
        if (isOutcome(current)) {
          prefetch();
          report(current);
        } else if (!this.connection.usable) {
          discardPrepared(current);
          report(lost());
        } else {
          report(await sendPrepared(current, deps, prefetch));
          prefetch();
        }
      }
    } finally {
      unlock();
    }
    return outcomes;
  }

  private storeDeps(): StoreDeps {
    return {
      connection: this.connection,
      contexts: this.contexts,
      messageId: () => this.messageId(),
      maxPdvData: this.maxPdvData(),
    };
  }

  // --- storage commitment (N-ACTION, N-EVENT-REPORT) --------------------------------------------

  commit(transactionUid: string, items: readonly CommitmentItem[], options: CommitOptions): Promise<boolean> {
    return this.exclusive(async () => {
      const context = this.contextFor(STORAGE_COMMITMENT_CLASS, 'N-ACTION');
      const dataset = commitmentRequestDataset(transactionUid, items, context.transferSyntax);
      let reported!: () => void;
      const report = new Promise<boolean>((resolve) => {
        reported = () => resolve(true);
        this.connection.whenClosed(() => resolve(false));
      });
      // Installed before the N-ACTION leaves: a fast peer may report before its N-ACTION-RSP is read.
      this.connection.onRequest = (request) => {
        void this.answerReport(context, request, options.onReport).then(reported, (error: unknown) =>
          this.connection.protocolError(`unreadable N-EVENT-REPORT: ${message(error)}`),
        );
      };
      try {
        const { status, comment } = await this.singleResponse(
          context,
          (messageId) => [
            element(0x0003, uid(STORAGE_COMMITMENT_CLASS)),
            element(0x0100, ushortValue(COMMAND.nActionRq)),
            element(0x0110, ushortValue(messageId)),
            element(0x0800, ushortValue(0x0000)),
            element(0x1001, uid(STORAGE_COMMITMENT_INSTANCE)),
            element(0x1008, ushortValue(COMMITMENT_ACTION_TYPE)),
          ],
          dataset,
        );
        if (classifyStatus(status) !== 'success' && classifyStatus(status) !== 'warning') {
          throw new DimseError(status, comment);
        }
        let timer: NodeJS.Timeout | undefined;
        let onAbort: (() => void) | undefined;
        const waited = new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), options.reportWaitMs);
          onAbort = () => resolve(false);
          if (options.signal?.aborted) resolve(false);
          options.signal?.addEventListener('abort', onAbort, { once: true });
        });
        try {
          return await Promise.race([report, waited]);
        } finally {
          clearTimeout(timer);
          if (onAbort) options.signal?.removeEventListener('abort', onAbort);
        }
      } finally {
        this.connection.onRequest = undefined;
      }
    });
  }

  /** Reads an N-EVENT-REPORT-RQ, hands it over and answers it (N-EVENT-REPORT-RSP). */
  private async answerReport(
    context: AcceptedContext,
    message: Message,
    onReport: (report: CommitmentReport) => Promise<ReportAnswer>,
  ): Promise<void> {
    const parsed = parseCommitmentReport(message.dataset ?? Buffer.alloc(0), context.transferSyntax);
    const answer = await onReport(parsed);
    await this.connection.write([
      responsePdu({
        presentationContextId: message.contextId,
        commandField: COMMAND.nEventReportRsp,
        messageIdBeingRespondedTo: message.command.messageId,
        affectedSopClassUid: STORAGE_COMMITMENT_CLASS,
        affectedSopInstanceUid: message.command.affectedSopInstanceUid || STORAGE_COMMITMENT_INSTANCE,
        status: answer.status,
        errorComment: 'comment' in answer ? answer.comment : undefined,
        eventTypeId: message.command.eventTypeId,
      }),
    ]);
  }

  // --- release / abort --------------------------------------------------------------------------

  release(): Promise<void> {
    return this.exclusive(() => this.connection.release()).catch(() => undefined);
  }

  abort(reason = 'aborted by the caller'): void {
    this.connection.fail(new AssociationError('aborted', reason));
  }

  // --- helpers ----------------------------------------------------------------------------------

  private contextFor(abstractSyntax: string, operation: string): AcceptedContext {
    const context = this.contexts.find((c) => c.abstractSyntax === abstractSyntax);
    if (!context) {
      throw new AssociationError(
        'no-context',
        `${operation}: the peer accepted no presentation context for ${abstractSyntax}`,
      );
    }
    return context;
  }

  private messageId(): number {
    const id = this.nextMessageId;
    this.nextMessageId = id === 0xffff ? 1 : id + 1;
    return id;
  }

  /** Payload bytes per PDV so that each P-DATA-TF stays within the peer's limit (6 = PDV item header). */
  private maxPdvData(): number {
    const limit = this.peerMaxPduLength > 0 ? Math.min(this.peerMaxPduLength, 1024 * 1024) : 1024 * 1024;
    return limit - 6;
  }

  private async acquire(): Promise<() => void> {
    const previous = this.lock;
    let unlock!: () => void;
    this.lock = new Promise<void>((resolve) => (unlock = resolve));
    await previous;
    if (!this.connection.usable) {
      unlock();
      throw this.connection.error ?? new AssociationError('closed', 'association is not open');
    }
    return unlock;
  }

  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    const unlock = await this.acquire();
    try {
      return await work();
    } finally {
      unlock();
    }
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** C-CANCEL-RQ for the request `messageId` (PS3.7 9.3.2.3). */
function cancelPdu(contextId: number, messageId: number): Buffer {
  return commandPdu(contextId, [
    element(0x0100, ushortValue(COMMAND.cCancelRq)),
    element(0x0120, ushortValue(messageId)),
    element(0x0800, ushortValue(NO_DATA_SET)),
  ]);
}

function aeValue(title: string): Buffer {
  const clean = title.trim();
  if (!/^[\x20-\x5b\x5d-\x7e]{1,16}$/.test(clean))
    throw new AssociationError('protocol', `invalid AE title ${title}`);
  return printable(clean);
}
