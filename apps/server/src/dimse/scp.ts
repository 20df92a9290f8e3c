import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import dimse from 'dcmjs-dimse';
import type { association, requests, responses } from 'dcmjs-dimse';
import { ApiError } from '../http/errors.js';
import type { IngestService } from '../ingest/ingest.service.js';
import type { IndexTarget } from '../repositories/ingest.repository.js';
import type { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import type { FileBlobStore, TempFile } from '../storage/file-blob-store.js';
import { part10Header } from './part10.js';
import { storeResponsePdu } from './response-pdu.js';
import { SpoolWritable } from './spool.js';
import { ACCEPTED_TRANSFER_SYNTAXES, isStorageSopClass, VERIFICATION } from './sop-classes.js';

const { Scp, Dataset } = dimse;
const { CEchoResponse } = dimse.responses;
const { PresentationContextResult, RejectResult, RejectSource, RejectReason, Status } = dimse.constants;

type Association = association.Association;
type PresentationContext = association.PresentationContext;
type CStoreRequest = requests.CStoreRequest;
type CEchoRequest = requests.CEchoRequest;
type CEchoResponse = responses.CEchoResponse;

/** C-STORE statuses (PS3.4 B.2.3). */
export const STORE_STATUS = {
  success: 0x0000,
  /** Refused: out of resources — the server could not store it; the sender may retry. */
  outOfResources: 0xa700,
  /** Error: cannot understand — the dataset does not parse or lacks a required attribute. */
  cannotUnderstand: 0xc000,
} as const;

export interface ScpDeps {
  aeTitle: string;
  nodes: DicomNodesRepository;
  ingest: IngestService;
  blobs: FileBlobStore;
  log: (line: string) => void;
  /** Registers a C-STORE in progress so a shutdown can wait for it. */
  track: (work: Promise<unknown>) => void;
}

/**
 * One association with one sender. The calling AE must be a registered node (and come from its host),
 * the called AE must be ours. Each received dataset is spooled straight into a Part-10 temp file (no
 * dcmjs parse of the dataset) and handed to the ingest pipeline; the C-STORE answer is sent only after
 * `ingestTemp` resolved, i.e. once the file and its index rows are durable.
 */
export class InboxScp extends Scp {
  private target: (IndexTarget & { callingAe: string }) | undefined;
  /** Per C-STORE in progress: its temp file (settling once fsynced) and presentation context. */
  private readonly received = new WeakMap<object, { temp: Promise<TempFile>; contextId: number }>();
  private readonly spools = new Set<SpoolWritable>();
  private readonly ip: string;

  constructor(
    private readonly conn: Socket,
    private readonly deps: ScpDeps,
  ) {
    super(conn, { associationTimeout: 30_000, pduTimeout: 60_000 });
    this.ip = normalizeIp(conn.remoteAddress ?? '');
    this.on('close', () => this.dropSpools());
  }

  override associationRequested(request: Association): void {
    this.negotiate(request).catch((error: unknown) => {
      this.deps.log(`DICOM association from ${this.ip} failed: ${String(error)}`);
      this.sendAssociationReject(
        RejectResult.Transient,
        RejectSource.ServiceProviderPresentation,
        RejectReason.TemporaryCongestion,
      );
    });
  }

  private async negotiate(request: Association): Promise<void> {
    const calling = request.getCallingAeTitle().trim();
    const called = request.getCalledAeTitle().trim();
    if (called !== this.deps.aeTitle) {
      this.deps.log(`DICOM association refused: called AE ${called} is not ${this.deps.aeTitle}`);
      return this.reject(RejectReason.CalledAeNotRecognized);
    }
    const node = await this.deps.nodes.findByAeTitle(calling);
    if (!node || !hostMatches(node.host, this.ip)) {
      this.deps.log(`DICOM association refused: calling AE ${calling} from ${this.ip} is not registered`);
      return this.reject(RejectReason.CallingAeNotRecognized);
    }
    this.target = {
      accountId: node.account_id,
      namespaceId: node.namespace_id,
      sourceAeTitle: calling,
      destinationAeTitle: this.deps.aeTitle,
      callingAe: calling,
    };
    for (const { id } of request.getPresentationContexts()) {
      const context = request.getPresentationContext(id);
      const abstract = context.getAbstractSyntaxUid();
      if (abstract !== VERIFICATION && !isStorageSopClass(abstract)) {
        context.setResult(PresentationContextResult.RejectAbstractSyntaxNotSupported);
        continue;
      }
      // The sender's order of preference: what it proposes first is what it holds the data in.
      const syntax = context.getTransferSyntaxUids().find((ts) => ACCEPTED_TRANSFER_SYNTAXES.has(ts));
      if (syntax) context.setResult(PresentationContextResult.Accept, syntax);
      else context.setResult(PresentationContextResult.RejectTransferSyntaxesNotSupported);
    }
    // Our receive limit (the A-ASSOCIATE-AC value): larger PDUs mean fewer PDUs per instance.
    request.setMaxPduLength(dimse.Implementation.getMaxPduLength());
    this.sendAssociationAccept();
  }

  private reject(reason: number): void {
    this.sendAssociationReject(RejectResult.Permanent, RejectSource.ServiceUser, reason);
    // Give the A-ASSOCIATE-RJ time to leave, then drop a peer that lingers.
    setTimeout(() => this.conn.destroy(), 2_000).unref();
  }

  override associationReleaseRequested(): void {
    this.sendAssociationReleaseResponse();
  }

  override abort(): void {
    this.dropSpools();
    this.conn.destroy();
  }

  override cEchoRequest(request: CEchoRequest, callback: (response: CEchoResponse) => void): void {
    const response = CEchoResponse.fromRequest(request);
    response.setStatus(Status.Success);
    callback(response);
  }

  override createStoreWritableStream(context: PresentationContext, request: CStoreRequest): Writable {
    const header = part10Header({
      sopClassUid: request.getAffectedSopClassUid(),
      sopInstanceUid: request.getAffectedSopInstanceUid(),
      transferSyntaxUid: context.getAcceptedTransferSyntaxUid() ?? '',
      sourceAeTitle: this.target?.callingAe ?? '',
    });
    const spool = new SpoolWritable(this.deps.blobs, header);
    this.spools.add(spool);
    spool.temp.then(
      () => this.spools.delete(spool),
      () => this.spools.delete(spool),
    );
    this.received.set(request, { temp: spool.temp, contextId: context.getPresentationContextId() });
    return spool;
  }

  override createDatasetFromStoreWritableStream(
    _writable: Writable,
    context: PresentationContext,
    callback: (dataset: InstanceType<typeof Dataset>) => void,
  ): void {
    // The bytes are already on their way to disk; the ingest pipeline reads what it needs from there.
    callback(new Dataset({}, context.getAcceptedTransferSyntaxUid()));
  }

  override cStoreRequest(request: CStoreRequest): void {
    const work = this.store(request).then((answer) => {
      if (!this.conn.destroyed) this.conn.write(answer);
    });
    this.deps.track(work);
  }

  /** Ingests one received instance; answers the C-STORE-RSP PDU to send (success only once durable). */
  private async store(request: CStoreRequest): Promise<Buffer> {
    const received = this.received.get(request);
    this.received.delete(request);
    let status: number = STORE_STATUS.success;
    let errorComment: string | undefined;
    try {
      if (!this.target || !received) throw new Error('C-STORE outside an accepted association');
      const temp = await received.temp;
      await this.deps.ingest.ingestTemp(temp, this.target, { kind: 'cstore', userId: null, ip: this.ip });
    } catch (error) {
      if (error instanceof ApiError && error.httpStatus < 500) {
        status = STORE_STATUS.cannotUnderstand;
        errorComment = `${error.errorType}: ${error.subtype ?? ''}`;
      } else {
        this.deps.log(`C-STORE of ${request.getAffectedSopInstanceUid()} failed: ${String(error)}`);
        status = STORE_STATUS.outOfResources;
        errorComment = 'could not store the instance';
      }
    }
    return storeResponsePdu({
      presentationContextId: received?.contextId ?? 1,
      messageIdBeingRespondedTo: request.getMessageId(),
      affectedSopClassUid: request.getAffectedSopClassUid(),
      affectedSopInstanceUid: request.getAffectedSopInstanceUid(),
      status,
      errorComment,
    });
  }

  private dropSpools(): void {
    for (const spool of this.spools) spool.destroy();
    this.spools.clear();
  }
}

function normalizeIp(address: string): string {
  return address.startsWith('::ffff:') ? address.slice(7) : address;
}

function hostMatches(registered: string, ip: string): boolean {
  return registered === '*' || normalizeIp(registered) === ip;
}
