/**
 * The public shapes of the DICOM client (SCU). Everything a caller (destinations, Retrieve Study,
 * push jobs) needs is here and in `index.ts`; the wire code stays behind them. See README.md.
 */
import type { Readable } from 'node:stream';
import type { StatusCategory } from './status.js';

/** A remote application entity: where to connect and which AE title to call. */
export interface Peer {
  host: string;
  port: number;
  /** Called AE title (the peer's own), at most 16 characters. */
  aeTitle: string;
  /** Set: the association runs over TLS 1.2 or later (DICOM's Basic TLS Secure Transport). */
  tls?: PeerTls | undefined;
}

/** What a TLS connection to a peer trusts and presents (PEM text). */
export interface PeerTls {
  /** CA certificate(s) the peer's certificate must chain to; absent: the system's trusted roots. */
  ca?: string | undefined;
  /** Our client certificate and its unencrypted private key, for a peer that asks for one. */
  cert?: string | undefined;
  key?: string | undefined;
  /** The name the peer's certificate must be for (its configured host name); default: `host`. */
  serverName?: string | undefined;
}

/** Every limit is in milliseconds; 0 means "no limit". */
export interface Timeouts {
  /** TCP connect. Default 10 s. */
  connectMs: number;
  /** From connect to the A-ASSOCIATE-AC (or RJ). Default 30 s. */
  associateMs: number;
  /** Each DIMSE response of C-ECHO, C-FIND (between two responses) and C-STORE. Default 60 s. */
  responseMs: number;
  /**
   * Each C-MOVE response. A PACS that moves synchronously (Orthanc) answers only once every
   * sub-operation is done, so this is long by default (0: none). Default 0.
   */
  moveResponseMs: number;
  /** A write the peer does not read (no `drain`) for this long aborts the association. Default 30 s. */
  writeStallMs: number;
  /** A-RELEASE-RQ to A-RELEASE-RP; past it the association is aborted instead. Default 10 s. */
  releaseMs: number;
}

export const DEFAULT_TIMEOUTS: Timeouts = {
  connectMs: 10_000,
  associateMs: 30_000,
  responseMs: 60_000,
  moveResponseMs: 0,
  writeStallMs: 30_000,
  releaseMs: 10_000,
};

/** One presentation context to propose: an abstract syntax (SOP class) and transfer syntaxes in order of preference. */
export interface ContextProposal {
  abstractSyntax: string;
  transferSyntaxes: string[];
}

export interface AssociationOptions {
  /** Our AE title (calling AE). */
  callingAe: string;
  /**
   * Contexts to propose. Default: Verification only. Use `findContexts`, `moveContexts` and
   * `storageContexts` (index.ts) to build them; duplicates are merged.
   */
  contexts?: ContextProposal[];
  timeouts?: Partial<Timeouts>;
}

/** A context the peer accepted, with the transfer syntax it chose. */
export interface AcceptedContext {
  id: number;
  abstractSyntax: string;
  transferSyntax: string;
}

/** The information models of C-FIND and C-MOVE. */
export type InformationModel = 'patient-root' | 'study-root' | 'worklist';

/** Query/Retrieve Level (0008,0052). */
export type QueryLevel = 'PATIENT' | 'STUDY' | 'SERIES' | 'IMAGE';

/**
 * Query keys by DICOM keyword (`PatientName`) or tag (`00100010`). A string is a matching value
 * (`''` asks for the attribute back: a return key; wildcards `*` `?`, ranges `20240101-`); an array
 * holds the one item of a sequence match, e.g.
 * `{ ScheduledProcedureStepSequence: [{ Modality: 'MR', ScheduledStationAETitle: '' }] }`.
 * Non-ASCII values are sent in UTF-8 with Specific Character Set `ISO_IR 192`.
 */
export interface QueryKeys {
  [keywordOrTag: string]: string | QueryKeys[];
}

export type FindRequest =
  | { model: 'patient-root' | 'study-root'; level: QueryLevel; keys: QueryKeys }
  | { model: 'worklist'; keys: QueryKeys };

/**
 * A decoded dataset: by keyword (tag `ggggeeee` for attributes the dictionary lacks). Text values are
 * decoded in the response's Specific Character Set, trailing padding removed, several values kept
 * joined by `\`; numbers (US, UL, SS, SL, FL, FD) as arrays; sequences as arrays of items. Bulk
 * binary values (OB, OW, UN…) are left out.
 */
export interface DicomAttributes {
  [keywordOrTag: string]: string | number[] | DicomAttributes[];
}

export interface FindOptions {
  /** At most this many results; past it a C-CANCEL is sent and `truncated` set. Default 500. */
  cap?: number;
  /** Aborting sends C-CANCEL and ends the iteration with the signal's reason. */
  signal?: AbortSignal;
}

/** How a C-FIND ended, known once its iteration is over. */
export interface FindOutcome {
  /** The final status (0x0000 success, 0xFE00 cancelled, or a failure). */
  status: number;
  /** Results handed out. */
  count: number;
  /** The cap was reached and the rest cancelled. */
  truncated: boolean;
}

/**
 * A C-FIND in progress: iterate it for results (each one decoded as it arrives). The request is
 * sent when iteration starts and holds the association until it ends: iterate with `for await`
 * (a `break` cancels cleanly); an iterator dropped half-way without `return()` keeps it busy.
 */
export interface FindStream extends AsyncIterable<DicomAttributes> {
  /** Set when the iteration ended normally (not for an abort or an error, which throw). */
  readonly outcome: FindOutcome | undefined;
}

/** What to move: the unique keys down to `level` (e.g. StudyInstanceUID for STUDY). */
export interface MoveRequest {
  model: 'patient-root' | 'study-root';
  level: QueryLevel;
  keys: QueryKeys;
}

/** Sub-operation counts of a C-MOVE response (absent fields: the peer did not send them). */
export interface MoveProgress {
  remaining?: number | undefined;
  completed?: number | undefined;
  failed?: number | undefined;
  warning?: number | undefined;
}

export interface MoveOptions {
  /**
   * Called with the C-MOVE-RQ's Message ID just before it is sent: the sub-operations' C-STOREs carry
   * it as Move Originator Message ID (0000,1031), which tells a receiver which move they belong to.
   */
  onRequest?: (messageId: number) => void;
  /** Called for each pending response (and the final one) with its counts. */
  onProgress?: (progress: MoveProgress) => void;
  /** Aborting sends C-CANCEL; the move then ends with status 0xFE00 (or whatever the peer answers). */
  signal?: AbortSignal;
}

export interface MoveResult extends MoveProgress {
  status: number;
  category: StatusCategory;
  /** Error Comment (0000,0902) of the final response, if any. */
  errorComment?: string | undefined;
  /** Failed SOP Instance UID List (0008,0058) of the final response's dataset, if any. */
  failedInstances: string[];
}

/**
 * One instance to send: its identity and transfer syntax (as stored) and how to read its Part-10
 * file (preamble, meta header, dataset). The dataset bytes are sent as they are read when the peer
 * accepted that transfer syntax; otherwise the whole file is read and transcoded to Explicit VR
 * Little Endian. `fileStoreSource` (index.ts) builds one from a path.
 */
export interface StoreSource {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntax: string;
  /** A fresh stream of the Part-10 file, each call from its start. */
  open(): Readable;
}

export interface StoreOutcome {
  sopInstanceUid: string;
  /** The C-STORE-RSP status; -1 when none came (association lost, nothing to send on, transcoding failed). */
  status: number;
  /**
   * success / warning (stored: B000, B006, B007…); retry: the instance was not stored but may be
   * later (A7xx out of resources, association lost or timed out); failure: this instance will not
   * be stored as it is (A9xx, Cxxx, no usable context, transcoding failed).
   */
  category: StatusCategory;
  /** Why, when not success: the peer's Error Comment or our own reason. */
  reason?: string | undefined;
  /** The transfer syntax sent; undefined when nothing was sent. */
  transferSyntax?: string | undefined;
  /** The file was transcoded to Explicit VR Little Endian because its own syntax was refused. */
  transcoded: boolean;
}

/** An established association. One operation runs at a time; calls made meanwhile wait their turn. */
/** How a storage commitment request hears its report on the association that asked. */
export interface CommitOptions {
  reportWaitMs: number;
  onReport: (report: CommitmentReport) => Promise<ReportAnswer>;
  /** Ends the wait for a report (not the N-ACTION): it was recorded some other way. */
  signal?: AbortSignal | undefined;
}

export interface ScuAssociation {
  readonly peer: Peer;
  readonly callingAe: string;
  /** Accepted contexts (rejected ones are left out). */
  readonly contexts: readonly AcceptedContext[];
  /** The peer's receive limit for our P-DATA-TF PDUs (0: unlimited). */
  readonly peerMaxPduLength: number;
  /** False once released, aborted, timed out or dropped: such an association is never used again. */
  readonly usable: boolean;
  /** Why it is not usable any more. */
  readonly closedReason: string | undefined;

  /** C-ECHO; resolves with the status (0x0000), throws DimseError / AssociationError. */
  echo(): Promise<number>;
  find(request: FindRequest, options?: FindOptions): FindStream;
  move(request: MoveRequest, destinationAe: string, options?: MoveOptions): Promise<MoveResult>;
  /** Sends one instance; never throws: every failure is in the outcome. */
  store(source: StoreSource): Promise<StoreOutcome>;
  /**
   * Sends instances in order, reading each next file while the peer stores the current one (the
   * faster way for a study). Never throws: one outcome per source, in order, each also reported
   * to `onOutcome` as it comes; once the association is lost the rest are `retry`.
   */
  storeAll(
    sources: readonly StoreSource[],
    options?: { onOutcome?: (outcome: StoreOutcome, index: number) => void },
  ): Promise<StoreOutcome[]>;
  /**
   * Storage commitment (PS3.4 J): N-ACTION asking the peer to commit `items` under
   * `transactionUid`, then up to `reportWaitMs` for its N-EVENT-REPORT on this association, each
   * handed to `onReport` and answered with what it says. Resolves true when a report came here,
   * false when the wait ended (or the peer released) without one: it may then come on an
   * association the peer opens to our listener. Throws DimseError when the N-ACTION is refused,
   * AssociationError when no context for it was accepted or the association ends before its answer.
   */
  commit(transactionUid: string, items: readonly CommitmentItem[], options: CommitOptions): Promise<boolean>;
  /** A-RELEASE after the current operation; aborts instead past `releaseMs`. */
  release(): Promise<void>;
  /** A-ABORT now; operations in progress fail with AssociationError. */
  abort(reason?: string): void;
}

/** One instance of a storage commitment request (PS3.4 J.3). */
export interface CommitmentItem {
  sopClassUid: string;
  sopInstanceUid: string;
}

/** What a PACS reported for one transaction. */
export interface CommitmentReport {
  transactionUid: string;
  committed: CommitmentItem[];
  /** Each failed instance with its Failure Reason (0008,1197), e.g. 0x0112 no such object instance. */
  failed: (CommitmentItem & { reason: number })[];
}

/** The answer to a report: recorded (0000), or refused with a DIMSE status and comment. */
export type ReportAnswer = { status: 0 } | { status: number; comment: string };
