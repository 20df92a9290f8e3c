import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import type { Socket } from 'node:net';
import type { IngestService, IngestSource } from '../ingest/ingest.service.js';
import type { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import type { IndexTarget } from '../repositories/ingest.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import { parseDicomHeader } from '../dicom/parse.js';
import type { MoveDeliveries } from './move-deliveries.js';
import { queryRetrieveClass } from './query-retrieve.js';
import type { QueryCaller, QueryRetrieveHandler, QueryRights } from './query-retrieve.js';
import { MAX_IDENTIFIER_BYTES, QueryScp } from './query-scp.js';
import { parseCommitmentReport, STORAGE_COMMITMENT_CLASS } from './storage-commitment.js';
import type { ReportAnswer, StorageCommitmentReports } from './storage-commitment.js';
import { EXPLICIT_LE, IMPLICIT_LE } from './client/identifier.js';
import {
  abortPdu,
  APPLICATION_CONTEXT,
  associateAcceptPdu,
  associateRejectPdu,
  CONTEXT_RESULT,
  parseAssociateRequest,
  REJECT,
  releaseResponsePdu,
} from './association-pdu.js';
import type { AssociateRequest, ContextAnswer } from './association-pdu.js';
import { COMMAND, parseIncomingCommandSet, responsePdu } from './command-set.js';
import { GetSubOperations } from './get-scp.js';
import type { RoleSelection } from './association-pdu.js';
import type { CommandSet } from './command-set.js';
import { DatasetSink } from './dataset-sink.js';
import type { ReceivedDataset } from './dataset-sink.js';
import { part10Header } from './part10.js';
import { PDU, PduReader } from './pdu-reader.js';
import type { PduHandler } from './pdu-reader.js';
import { ACCEPTED_TRANSFER_SYNTAXES, isStorageSopClass, VERIFICATION } from './sop-classes.js';
import { STORE_STATUS, storeFailureOf } from './store-status.js';
import { markStoreStage } from '../metrics/store-stages.js';
import { hostMatches, normalizeIp } from './sender-host.js';

/** The largest storage commitment report read (about 40,000 instances); more: A-ABORT. */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;
/** Our receive limit for P-DATA-TF PDUs (A-ASSOCIATE-AC): larger PDUs mean fewer per instance. */
export const MAX_PDU_LENGTH = 256 * 1024;
/** How long a connection may take to ask for an association, and how long an association may idle. */
export interface AssociationTimeouts {
  /**
   * ARTIM (PS3.8 9.1.5): from the connection to a complete A-ASSOCIATE-RQ. A fixed deadline, not
   * reset by bytes: a peer trickling a byte now and then does not hold the connection open.
   */
  artimMs: number;
  /** An established association with no PDU from the peer (and no store of ours under way) for this long is aborted. */
  idleMs: number;
}

export const DEFAULT_ASSOCIATION_TIMEOUTS: AssociationTimeouts = { artimMs: 30_000, idleMs: 60_000 };

export interface ScpDeps {
  aeTitle: string;
  nodes: DicomNodesRepository;
  ingest: IngestService;
  blobs: BlobStore;
  log: (line: string) => void;
  /** Registers a C-STORE in progress so a shutdown can wait for it. */
  track: (work: Promise<unknown>) => void;
  /** Finds the retrieve an instance from a destination's PACS belongs to (C-MOVE deliveries). */
  deliveries: MoveDeliveries;
  /** Answers a registered node's C-FIND, C-MOVE and C-GET; without it those are not offered. */
  queries?: QueryRetrieveHandler | undefined;
  /** Takes a destination's PACS's storage commitment reports; without it they are not accepted. */
  commitments?: StorageCommitmentReports | undefined;
  timeouts?: AssociationTimeouts;
  /** Counts associations by outcome (metrics). */
  meter?: { association(outcome: 'accepted' | 'rejected'): void };
}

interface Accepted {
  abstractSyntax: string;
  transferSyntax: string;
}

/** A DIMSE message being received on one presentation context. */
interface Incoming {
  commandChunks: Buffer[];
  command?: CommandSet;
  /** Where the dataset's fragments go (C-STORE); undefined: they are dropped. */
  sink?: DatasetSink;
  /** Asked once a large dataset's first part is in: may its file be written as soon as it completes? */
  storeAhead?: Promise<boolean>;
  /**
   * A C-FIND / C-MOVE / C-GET identifier (bounded by MAX_IDENTIFIER_BYTES) or a storage commitment
   * report (MAX_REPORT_BYTES) being gathered.
   */
  identifier?: { chunks: Buffer[]; bytes: number; limit: number };
}

type Phase = 'idle' | 'negotiating' | 'established' | 'released' | 'closed';

/**
 * One association with one sender, on our own upper-layer and DIMSE parsing: the calling AE must be
 * a registered node (and come from its host), the called AE must be ours. Each C-STORE dataset flows
 * from the socket into a DatasetSink and then through the ingest pipeline; its C-STORE-RSP is written
 * only once the file and its index rows are durable. See README.md beside this file.
 */
export class StoreScpConnection implements PduHandler {
  private phase: Phase = 'idle';
  private readonly reader = new PduReader(this, MAX_PDU_LENGTH);
  private readonly contexts = new Map<number, Accepted>();
  private readonly incoming = new Map<number, Incoming>();
  private readonly inFlight = new Set<Promise<void>>();
  private target: IndexTarget | undefined;
  private source: IngestSource | undefined;
  private callingAe = '';
  /** The registered node that may query here, and what it may do (decision 0061). */
  private caller: QueryCaller | undefined;
  private rights: QueryRights = { find: false, retrieve: false };
  private queryScp: QueryScp | undefined;
  /** Storage SOP classes the requestor takes the SCP role for (C-GET), as we answered it. */
  private scpRoles = new Set<string>();
  private getOperations: GetSubOperations | undefined;
  /** The requestor's maximum PDU length (0: unlimited): what we send must fit in it. */
  private peerMaxPdu = 0;
  /** A destination's PACS (a sender without a group): each instance goes where its C-MOVE asked. */
  private delivery: { destinationIds: string[]; calledAe: string; association: string } | undefined;
  /** Per retrieve delivered on this association: its ingest source (studies already audited). */
  private readonly retrieveSources = new Map<string, IngestSource>();
  private readonly ip: string;
  private releaseRequested = false;
  /** The size of the last dataset received: the next one is sized for it (a series' images are alike). */
  private lastDatasetSize = 0;
  private readonly timeouts: AssociationTimeouts;
  private artim: NodeJS.Timeout | undefined;
  private idle: NodeJS.Timeout | undefined;

  constructor(
    private readonly socket: Socket,
    private readonly deps: ScpDeps,
  ) {
    this.ip = normalizeIp(socket.remoteAddress ?? '');
    socket.setNoDelay(true);
    this.timeouts = deps.timeouts ?? DEFAULT_ASSOCIATION_TIMEOUTS;
    this.artim = setTimeout(() => this.abort('no association request within ARTIM'), this.timeouts.artimMs);
    socket.on('data', (chunk: Buffer) => this.reader.push(chunk));
    socket.on('error', () => this.closed());
    socket.on('close', () => this.closed());
  }

  // --- PduHandler -------------------------------------------------------------------------------

  controlPdu(type: number, body: Buffer): void {
    this.heardFromPeer();
    if (type === PDU.associateRq && this.phase === 'idle') {
      clearTimeout(this.artim);
      this.phase = 'negotiating';
      this.negotiate(body).catch((error: unknown) => {
        this.deps.log(`DICOM association from ${this.ip} failed: ${String(error)}`);
        this.reject(
          REJECT.transient,
          REJECT.sourceServiceProviderPresentation,
          REJECT.reasonTemporaryCongestion,
        );
      });
    } else if (type === PDU.releaseRq && this.phase === 'established') {
      this.releaseRequested = true;
      void this.releaseWhenIdle();
    } else if (type === PDU.abort) {
      this.closed();
      this.socket.destroy();
    } else {
      this.abort(`unexpected PDU 0x${type.toString(16)} while ${this.phase}`);
    }
  }

  pdvData(contextId: number, isCommand: boolean, slice: Buffer): void {
    this.heardFromPeer();
    const message = this.message(contextId);
    if (!message) return;
    if (isCommand) {
      if (message.command) return this.abort('command fragment after a complete command');
      message.commandChunks.push(slice);
    } else {
      if (!message.command?.hasDataset) return this.abort('dataset fragment without a command announcing it');
      if (message.identifier) {
        message.identifier.bytes += slice.length;
        if (message.identifier.bytes > message.identifier.limit)
          return this.abort('query identifier too long');
        message.identifier.chunks.push(Buffer.from(slice));
        return;
      }
      message.sink?.write(slice);
      const arrived = message.storeAhead ? undefined : message.sink?.arrived;
      if (arrived && this.target) {
        message.storeAhead = this.deps.ingest.mayStoreAhead(arrived, this.target).catch(() => false);
      }
    }
  }

  pdvEnd(contextId: number, isCommand: boolean, isLast: boolean): void {
    if (!isLast) return;
    const message = this.message(contextId);
    if (!message) return;
    if (isCommand) {
      if (message.command) return this.abort('second command before the dataset');
      try {
        message.command = parseIncomingCommandSet(Buffer.concat(message.commandChunks));
      } catch (error) {
        return this.abort(`unreadable command set: ${String(error)}`);
      }
      message.commandChunks = [];
      markStoreStage('command');
      this.commandReceived(contextId, message);
    } else {
      if (!message.command?.hasDataset) return this.abort('dataset fragment without a command announcing it');
      this.incoming.delete(contextId);
      markStoreStage('dataset');
      if (message.identifier && message.command.commandField === COMMAND.nEventReportRq) {
        return this.run(this.commitmentReport(contextId, message));
      }
      if (message.identifier) return this.query(contextId, message);
      if (message.sink) this.run(this.store(contextId, message.command, message.sink, message.storeAhead));
    }
  }

  protocolError(reason: string): void {
    this.abort(reason);
  }

  // --- association ------------------------------------------------------------------------------

  private async negotiate(body: Buffer): Promise<void> {
    let request: AssociateRequest;
    try {
      request = parseAssociateRequest(body);
    } catch (error) {
      return this.abort(`unreadable A-ASSOCIATE-RQ: ${String(error)}`);
    }
    if (request.applicationContext !== APPLICATION_CONTEXT) {
      return this.reject(
        REJECT.permanent,
        REJECT.sourceServiceUser,
        REJECT.reasonApplicationContextNotSupported,
      );
    }
    const node = await this.deps.nodes.findAnyByAeTitle(request.callingAe);
    if (node && node.namespace_id === null && node.destination_id && hostMatches(node.host, this.ip)) {
      // A destination's PACS delivering a C-MOVE: to the AE title its account (or destination) called
      // it as, which names the destinations it may deliver for (decision 0054).
      const destinationIds = await this.deps.deliveries.destinationsFor(request.calledAe, node.ae_title);
      if (destinationIds.length) {
        if (this.phase !== 'negotiating') return;
        this.callingAe = request.callingAe;
        this.delivery = { destinationIds, calledAe: request.calledAe, association: randomUUID() };
        return this.accept(request);
      }
      this.deps.log(
        `DICOM association refused: PACS ${request.callingAe} from ${this.ip} may not deliver to ${request.calledAe}`,
      );
    }
    if (request.calledAe !== this.deps.aeTitle) return this.negotiateLocal(request);
    if (!node || !node.namespace_id || !hostMatches(node.host, this.ip)) {
      this.deps.log(
        `DICOM association refused: calling AE ${request.callingAe} from ${this.ip} is not registered`,
      );
      return this.reject(REJECT.permanent, REJECT.sourceServiceUser, REJECT.reasonCallingAeNotRecognized);
    }
    // Asked only of an association that proposes a Query/Retrieve context (a scanner's stores do not).
    if (this.deps.queries && request.contexts.some((c) => queryRetrieveClass(c.abstractSyntax))) {
      this.caller = {
        nodeId: node.uuid,
        accountId: node.account_id,
        aeTitle: node.ae_title,
        ip: this.ip,
        association: randomUUID(),
      };
      this.rights = await this.deps.queries.rights(this.caller);
    }
    if (this.phase !== 'negotiating') return;
    this.callingAe = request.callingAe;
    this.target = {
      accountId: node.account_id,
      namespaceId: node.namespace_id,
      sourceAeTitle: request.callingAe,
      destinationAeTitle: this.deps.aeTitle,
    };
    this.accept(request);
  }

  /** Accepts the association: the contexts answered, the ingest source set, the idle limit started. */
  private accept(request: AssociateRequest): void {
    this.peerMaxPdu = request.maxPduLength;
    this.source = {
      kind: 'cstore',
      userId: null,
      ip: this.ip,
      auditedStudies: new Set(),
      session: { association: randomUUID(), calling_ae: request.callingAe },
      // The file (with this calling AE in its meta header) is durable before its row is written.
      fileIsRecord: true,
    };
    // A node that may retrieve takes the storage SCP role it asks for (C-GET); others are refused it.
    const roles: RoleSelection[] = request.roles
      .filter((r) => isStorageSopClass(r.sopClassUid))
      .map((r) => ({ sopClassUid: r.sopClassUid, scu: r.scu, scp: r.scp && this.rights.retrieve }));
    // A destination's PACS reporting storage commitment acts as its SCP (it sends the N-EVENT-REPORT).
    if (this.mayReportCommitment()) {
      for (const r of request.roles.filter((x) => x.sopClassUid === STORAGE_COMMITMENT_CLASS))
        roles.push({ sopClassUid: r.sopClassUid, scu: false, scp: r.scp });
    }
    for (const role of roles) if (role.scp) this.scpRoles.add(role.sopClassUid);
    const answers = request.contexts.map((context) => this.answer(context));
    this.socket.write(associateAcceptPdu(request, answers, MAX_PDU_LENGTH, roles));
    this.deps.meter?.association('accepted');
    this.phase = 'established';
    this.heardFromPeer();
  }

  /**
   * An association to another AE title of ours (local_ae_titles): what it stores goes to that
   * title's group. Callers: a registered sender of the same account from its host, or this
   * product itself (our own AE title, from this machine) pushing to it as to a PACS.
   */
  private async negotiateLocal(request: AssociateRequest): Promise<void> {
    const local = await this.deps.nodes.findLocalAe(request.calledAe);
    if (!local) {
      this.deps.log(`DICOM association refused: called AE ${request.calledAe} is not ${this.deps.aeTitle}`);
      return this.reject(REJECT.permanent, REJECT.sourceServiceUser, REJECT.reasonCalledAeNotRecognized);
    }
    // Our own push: an AE title one of our accounts calls as, of the account the local title feeds.
    const ourselves =
      isLoopback(this.ip) && (await this.deps.deliveries.accountOf(request.callingAe)) === local.account_id;
    const node = ourselves ? undefined : await this.deps.nodes.findAnyByAeTitle(request.callingAe);
    if (!ourselves && (!node || node.account_id !== local.account_id || !hostMatches(node.host, this.ip))) {
      this.deps.log(
        `DICOM association refused: calling AE ${request.callingAe} from ${this.ip} may not send to ${request.calledAe}`,
      );
      return this.reject(REJECT.permanent, REJECT.sourceServiceUser, REJECT.reasonCallingAeNotRecognized);
    }
    if (this.phase !== 'negotiating') return;
    this.callingAe = request.callingAe;
    this.target = {
      accountId: local.account_id,
      namespaceId: local.namespace_id,
      sourceAeTitle: request.callingAe,
      destinationAeTitle: request.calledAe,
    };
    this.accept(request);
  }

  /** Restarts the idle limit of an established association. */
  private heardFromPeer(): void {
    if (this.phase !== 'established') return;
    clearTimeout(this.idle);
    this.idle = setTimeout(() => this.idleExpired(), this.timeouts.idleMs);
  }

  /** A peer waiting for our answers is not idle; one that went quiet otherwise is dropped. */
  private idleExpired(): void {
    if (this.phase !== 'established') return;
    if (this.inFlight.size > 0) {
      this.idle = setTimeout(() => this.idleExpired(), this.timeouts.idleMs);
      return;
    }
    this.abort(`idle for ${this.timeouts.idleMs} ms`);
  }

  /** Every transfer syntax we know is accepted as proposed: the sender's first choice that we know. */
  private answer(context: { id: number; abstractSyntax: string; transferSyntaxes: string[] }): ContextAnswer {
    const fallback = context.transferSyntaxes[0] ?? '';
    const queryClass = queryRetrieveClass(context.abstractSyntax);
    if (queryClass) return this.answerQuery(context, queryClass.service === 'find');
    if (context.abstractSyntax === STORAGE_COMMITMENT_CLASS && this.mayReportCommitment()) {
      const syntax = context.transferSyntaxes.find((ts) => ts === EXPLICIT_LE || ts === IMPLICIT_LE);
      if (syntax) {
        this.contexts.set(context.id, { abstractSyntax: context.abstractSyntax, transferSyntax: syntax });
        return { id: context.id, result: CONTEXT_RESULT.acceptance, transferSyntax: syntax };
      }
    }
    if (context.abstractSyntax !== VERIFICATION && !isStorageSopClass(context.abstractSyntax)) {
      return { id: context.id, result: CONTEXT_RESULT.abstractSyntaxNotSupported, transferSyntax: fallback };
    }
    return this.acceptIn(
      context,
      context.transferSyntaxes.find((ts) => ACCEPTED_TRANSFER_SYNTAXES.has(ts)),
      fallback,
    );
  }

  /**
   * A context we serve: accepted in `syntax` (remembered for the commands it carries), or refused
   * when the proposer offered no transfer syntax we read.
   */
  private acceptIn(
    context: { id: number; abstractSyntax: string },
    syntax: string | undefined,
    fallback: string,
  ): ContextAnswer {
    if (!syntax) {
      return {
        id: context.id,
        result: CONTEXT_RESULT.transferSyntaxesNotSupported,
        transferSyntax: fallback,
      };
    }
    this.contexts.set(context.id, { abstractSyntax: context.abstractSyntax, transferSyntax: syntax });
    return { id: context.id, result: CONTEXT_RESULT.acceptance, transferSyntax: syntax };
  }

  /**
   * A Query/Retrieve context: accepted for a node whose rights cover it (find, or retrieve for
   * C-MOVE and C-GET), in the proposer's first of the two syntaxes our identifier codec reads.
   */
  private answerQuery(
    context: { id: number; abstractSyntax: string; transferSyntaxes: string[] },
    find: boolean,
  ): ContextAnswer {
    const fallback = context.transferSyntaxes[0] ?? '';
    if (!this.caller || !(find ? this.rights.find : this.rights.retrieve)) {
      return { id: context.id, result: CONTEXT_RESULT.userRejection, transferSyntax: fallback };
    }
    return this.acceptIn(
      context,
      context.transferSyntaxes.find((ts) => ts === EXPLICIT_LE || ts === IMPLICIT_LE),
      fallback,
    );
  }

  private reject(result: number, source: number, reason: number): void {
    if (this.socket.destroyed) return;
    this.phase = 'closed';
    this.deps.meter?.association('rejected');
    this.socket.write(associateRejectPdu(result, source, reason));
    // Give the A-ASSOCIATE-RJ time to leave, then drop a peer that lingers.
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 2_000).unref();
  }

  /** A-RELEASE-RP once every store already received has been answered. */
  private async releaseWhenIdle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
    if (this.socket.destroyed) return;
    this.phase = 'released';
    this.socket.end(releaseResponsePdu());
    // ARTIM again: a peer that never closes its side after the release is dropped.
    setTimeout(() => this.socket.destroy(), this.timeouts.artimMs).unref();
  }

  private abort(reason: string): void {
    if (this.phase === 'closed') return;
    this.deps.log(`DICOM association from ${this.ip} aborted: ${reason}`);
    if (!this.socket.destroyed) this.socket.write(abortPdu());
    this.closed();
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }

  /** The association is over, however it ended: datasets not yet complete are dropped. */
  private closed(): void {
    this.phase = 'closed';
    clearTimeout(this.artim);
    clearTimeout(this.idle);
    for (const message of this.incoming.values()) message.sink?.destroy();
    this.incoming.clear();
    this.getOperations?.closed();
  }

  // --- DIMSE ------------------------------------------------------------------------------------

  /** The message in progress on an accepted context; aborts on anything outside an association. */
  private message(contextId: number): Incoming | undefined {
    if (this.phase !== 'established' || this.releaseRequested) {
      this.abort(`P-DATA-TF while ${this.phase}`);
      return undefined;
    }
    if (!this.contexts.has(contextId)) {
      this.abort(`P-DATA-TF on presentation context ${contextId}, which was not accepted`);
      return undefined;
    }
    let message = this.incoming.get(contextId);
    if (!message) {
      message = { commandChunks: [] };
      this.incoming.set(contextId, message);
    }
    return message;
  }

  private commandReceived(contextId: number, message: Incoming): void {
    const command = message.command!;
    const context = this.contexts.get(contextId)!;
    if (command.commandField === COMMAND.cStoreRq && command.hasDataset) {
      message.sink = new DatasetSink(
        this.deps.blobs,
        part10Header({
          sopClassUid: command.affectedSopClassUid || context.abstractSyntax,
          sopInstanceUid: command.affectedSopInstanceUid,
          transferSyntaxUid: context.transferSyntax,
          sourceAeTitle: this.callingAe,
        }),
        { pause: () => this.socket.pause(), resume: () => this.socket.resume() },
        this.lastDatasetSize,
      );
      return;
    }
    if (command.commandField === COMMAND.cStoreRsp) {
      this.incoming.delete(contextId);
      this.getOperations?.answered(command.messageIdBeingRespondedTo, command.status);
      return;
    }
    if (command.commandField === COMMAND.cCancelRq) {
      this.incoming.delete(contextId);
      this.queryScp?.cancel(command.messageIdBeingRespondedTo);
      return;
    }
    const queryClass = queryRetrieveClass(context.abstractSyntax);
    const queryCommand = { find: COMMAND.cFindRq, move: COMMAND.cMoveRq, get: COMMAND.cGetRq };
    if (queryClass && command.hasDataset && command.commandField === queryCommand[queryClass.service]) {
      message.identifier = { chunks: [], bytes: 0, limit: MAX_IDENTIFIER_BYTES };
      return;
    }
    if (
      context.abstractSyntax === STORAGE_COMMITMENT_CLASS &&
      command.hasDataset &&
      command.commandField === COMMAND.nEventReportRq
    ) {
      message.identifier = { chunks: [], bytes: 0, limit: MAX_REPORT_BYTES };
      return;
    }
    // Anything else is answered at once; a dataset that follows it is read and dropped.
    if (!command.hasDataset) this.incoming.delete(contextId);
    const echo = command.commandField === COMMAND.cEchoRq;
    this.send(
      responsePdu({
        presentationContextId: contextId,
        commandField: command.commandField | 0x8000,
        messageIdBeingRespondedTo: command.messageId,
        affectedSopClassUid: command.affectedSopClassUid || context.abstractSyntax,
        affectedSopInstanceUid: command.affectedSopInstanceUid || undefined,
        status: echo ? STORE_STATUS.success : STORE_STATUS.unrecognizedOperation,
        errorComment: echo ? undefined : 'only C-ECHO and C-STORE are performed here',
      }),
    );
  }

  /** Ingests one received instance and answers it: success only once it is durable. */
  private async store(
    contextId: number,
    command: CommandSet,
    sink: DatasetSink,
    storeAhead: Promise<boolean> | undefined,
  ): Promise<void> {
    let answer: { status: number; errorComment?: string | undefined };
    try {
      answer = await this.ingest(
        command,
        await sink.end({ storeAhead: await this.mayStoreAhead(sink, storeAhead) }),
      );
    } catch (error) {
      const failure = storeFailureOf(error);
      if (failure.status === STORE_STATUS.outOfResources) {
        this.deps.log(`C-STORE of ${command.affectedSopInstanceUid} failed: ${String(error)}`);
      }
      answer = failure;
    }
    this.answerStore(contextId, command, answer.status, answer.errorComment);
    markStoreStage('answered');
  }

  /**
   * Whether a complete dataset's file is written before the ingest reads its header. A large one
   * was checked while it arrived (IngestService.mayStoreAhead: its header, no such instance yet).
   * A small one is written at once for the association's own group: its header parse and the
   * index's duplicate check then run while the file syncs instead of before (the answer waits for
   * both either way). One that fails either is removed again (IngestService.ingestBytes); a re-sent
   * instance finds its file there already. A retrieve's instance is not: which group it belongs
   * to is known only from its header.
   */
  private async mayStoreAhead(sink: DatasetSink, checked: Promise<boolean> | undefined): Promise<boolean> {
    if (checked) return (await checked) === true;
    return sink.small && this.target !== undefined;
  }

  /**
   * Ingests a received dataset into the association's group, or, from a destination's PACS, into
   * the group of the retrieve it belongs to; one that belongs to none is refused and dropped.
   */
  private async ingest(
    command: CommandSet,
    received: ReceivedDataset,
  ): Promise<{ status: number; errorComment?: string }> {
    if (!this.source) throw new Error('C-STORE outside an accepted association');
    let target = this.target;
    let source = this.source;
    let retrieveId: string | undefined;
    if (!target) {
      const retrieve = await this.deliveryOf(command, received);
      if (!retrieve) {
        if (received.kind === 'memory') received.release();
        else await this.deps.blobs.discard(received.temp);
        const errorComment = 'no retrieve of ours asked for this instance';
        this.deps.log(
          `C-STORE of ${command.affectedSopInstanceUid} from ${this.callingAe} refused: ${errorComment}`,
        );
        return { status: STORE_STATUS.notAuthorized, errorComment };
      }
      retrieveId = retrieve.uuid;
      target = {
        accountId: retrieve.account_id,
        namespaceId: retrieve.namespace_id,
        sourceAeTitle: this.callingAe,
        destinationAeTitle: this.deps.aeTitle,
        retrieving: true,
      };
      source = this.retrieveSource(retrieve.uuid, retrieve.user_id);
    }
    let duplicate: boolean;
    if (received.kind === 'memory') {
      this.lastDatasetSize = received.bytes.byteLength;
      try {
        ({ duplicate } = await this.deps.ingest.ingestBytes(received.bytes, target, source, {
          sha256: received.sha256,
          storedAhead: received.stored,
        }));
      } finally {
        // ingestBytes settles only after the file's write has (IngestService.index).
        received.release();
      }
    } else {
      ({ duplicate } = await this.deps.ingest.ingestTemp(received.temp, target, source));
    }
    // The retrieve's progress counts each instance once: a move taken over after a crash sends again
    // what the first run stored.
    if (retrieveId && !duplicate) await this.deps.deliveries.stored(retrieveId).catch(() => undefined);
    return { status: STORE_STATUS.success };
  }

  private answerStore(contextId: number, command: CommandSet, status: number, errorComment?: string): void {
    this.send(
      responsePdu({
        presentationContextId: contextId,
        commandField: COMMAND.cStoreRsp,
        messageIdBeingRespondedTo: command.messageId,
        affectedSopClassUid: command.affectedSopClassUid,
        affectedSopInstanceUid: command.affectedSopInstanceUid,
        status,
        errorComment,
      }),
    );
  }

  /**
   * The running retrieve an instance from a destination's PACS belongs to: by the C-STORE's Move
   * Originator AE Title and Message ID, else by the instance's Study Instance UID (read from the
   * received dataset only then).
   */
  private deliveryOf(command: CommandSet, received: ReceivedDataset) {
    return this.deps.deliveries.retrieveFor({
      destinationIds: this.delivery!.destinationIds,
      calledAe: this.delivery!.calledAe,
      originatorAe: command.moveOriginatorAe || undefined,
      originatorMessageId: command.moveOriginatorMessageId,
      studyUid: async () => {
        try {
          const bytes =
            received.kind === 'memory'
              ? received.bytes
              : (received.temp.bytes ?? (await fsp.readFile(received.temp.path)));
          return parseDicomHeader(bytes).studyInstanceUid;
        } catch {
          return undefined;
        }
      },
    });
  }

  /** The ingest source of one retrieve's deliveries: its requester, audited once per study. */
  private retrieveSource(retrieveId: string, userId: string): IngestSource {
    let source = this.retrieveSources.get(retrieveId);
    if (!source) {
      source = {
        kind: 'retrieve',
        userId,
        ip: this.ip,
        auditedStudies: new Set(),
        session: {
          association: this.delivery!.association,
          calling_ae: this.callingAe,
          retrieve: retrieveId,
        },
        // The row is committed synced: the recovery scan could not tell which group the file was for.
        fileIsRecord: false,
      };
      this.retrieveSources.set(retrieveId, source);
    }
    return source;
  }

  /** Only a destination's PACS (an association that delivers for destinations) may report commitments. */
  private mayReportCommitment(): boolean {
    return this.delivery !== undefined && this.deps.commitments !== undefined;
  }

  /** A storage commitment report (N-EVENT-REPORT-RQ) complete: handed to the pacs module, then answered. */
  private async commitmentReport(contextId: number, message: Incoming): Promise<void> {
    const context = this.contexts.get(contextId)!;
    const command = message.command!;
    let answer: ReportAnswer;
    try {
      const report = parseCommitmentReport(Buffer.concat(message.identifier!.chunks), context.transferSyntax);
      answer = await this.deps.commitments!.report(
        {
          callingAe: this.callingAe,
          calledAe: this.delivery!.calledAe,
          destinationIds: this.delivery!.destinationIds,
        },
        report,
      );
    } catch (error) {
      this.deps.log(`storage commitment report from ${this.callingAe} refused: ${String(error)}`);
      answer = { status: 0x0110, comment: 'unreadable storage commitment report' }; // processing failure
    }
    this.send(
      responsePdu({
        presentationContextId: contextId,
        commandField: COMMAND.nEventReportRsp,
        messageIdBeingRespondedTo: command.messageId,
        affectedSopClassUid: STORAGE_COMMITMENT_CLASS,
        affectedSopInstanceUid: command.affectedSopInstanceUid || undefined,
        status: answer.status,
        errorComment: 'comment' in answer ? answer.comment : undefined,
        eventTypeId: command.eventTypeId,
      }),
    );
  }

  /** A C-FIND / C-MOVE / C-GET whose identifier is complete: run by the Query/Retrieve SCP. */
  private query(contextId: number, message: Incoming): void {
    const context = this.contexts.get(contextId)!;
    const queryClass = queryRetrieveClass(context.abstractSyntax)!;
    const identifier = Buffer.concat(message.identifier!.chunks);
    this.queryScp ??= new QueryScp(this.deps.queries!, this.caller!, {
      write: (chunks) => this.writeDrained(chunks),
      maxPdvData: (this.peerMaxPdu > 0 ? Math.min(this.peerMaxPdu, MAX_PDU_LENGTH) : MAX_PDU_LENGTH) - 6,
      open: () => this.phase === 'established' && !this.socket.destroyed,
      ourAeTitle: this.deps.aeTitle,
      log: this.deps.log,
    });
    if (queryClass.service === 'get' && !this.queryScp.getter) {
      const scp = this.queryScp;
      const handler = this.deps.queries!;
      const caller = this.caller!;
      this.getOperations = new GetSubOperations({
        storageContexts: [...this.contexts.entries()]
          .filter(([, c]) => this.scpRoles.has(c.abstractSyntax))
          .map(([id, c]) => ({ id, ...c })),
        write: (chunks) => this.writeDrained(chunks),
        maxPdvData: (this.peerMaxPdu > 0 ? Math.min(this.peerMaxPdu, MAX_PDU_LENGTH) : MAX_PDU_LENGTH) - 6,
      });
      const operations = this.getOperations;
      scp.getter = async (base, request, running) => {
        const sources = await handler.retrieve(caller, request, 'get');
        await scp.subOperations(base, sources, running, (send) => send((source) => operations.store(source)));
      };
    }
    this.run(this.queryScp.run(contextId, context, queryClass.model, message.command!, identifier));
  }

  /** Writes and resolves when the socket has room again (or is gone): a large answer goes at the peer's pace. */
  private writeDrained(chunks: Buffer[]): Promise<void> {
    if (this.socket.destroyed || this.phase === 'closed') return Promise.resolve();
    let room = true;
    for (const chunk of chunks) room = this.socket.write(chunk);
    if (room) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.socket.off('drain', done);
        this.socket.off('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }

  private run(work: Promise<void>): void {
    this.inFlight.add(work);
    this.deps.track(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private send(pdu: Buffer): void {
    if (!this.socket.destroyed && this.phase !== 'closed') this.socket.write(pdu);
  }
}

function isLoopback(ip: string): boolean {
  return ip === '::1' || ip.startsWith('127.');
}
