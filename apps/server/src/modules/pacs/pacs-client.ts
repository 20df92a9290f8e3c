import {
  AssociationError,
  echo,
  findContexts,
  moveContexts,
  openAssociation,
  storageContexts,
  STORAGE_COMMITMENT_CONTEXT,
  type ScuAssociation,
  type AssociationOptions,
  type DicomAttributes,
  type StoreOutcome,
  type StoreSource,
  type FindOutcome,
  type MoveProgress,
  type MoveResult,
  type Peer,
  type QueryKeys,
} from '../../dimse/client/index.js';
import { NO_DICOM_ANSWER } from '@imaging-inbox/contract';
import type { CommitmentItem, CommitmentReport, ReportAnswer } from '../../dimse/storage-commitment.js';

/** A destination's PACS as we call it: where it is, its AE title, and the AE title we call it as. */
export interface PacsPeer extends Peer {
  /** The calling AE: the destination's own, else its account's (services/calling-ae-titles.service.ts). */
  callingAe: string;
}

/**
 * The one answer an account sees when a PACS could not be reached or would not associate: it says
 * nothing of whether the port was closed, open to something else or silent (the detail is logged).
 */
export { NO_DICOM_ANSWER };

export class NoDicomAnswer extends Error {
  constructor() {
    super(NO_DICOM_ANSWER);
    this.name = 'NoDicomAnswer';
  }
}

/**
 * The PACS answered the association but accepts no C-FIND of this model: it takes no searches at all
 * (a push-only PACS whose destination has Search ticked), as opposed to giving no answer.
 */
export class SearchNotOffered extends Error {
  constructor() {
    super('the PACS takes no study searches (C-FIND)');
    this.name = 'SearchNotOffered';
  }
}

/**
 * What destinations, Retrieve Study and push ask of a PACS, on the DICOM client (dimse/client),
 * each calling as the peer's `callingAe`. Services and jobs take this narrow interface, so each
 * opens its own association for its own operation and never shares one.
 */
export interface PacsClient {
  /** C-ECHO; resolves on success, rejects with NoDicomAnswer otherwise. */
  echo(peer: PacsPeer): Promise<void>;
  /**
   * Study Root C-FIND at STUDY level; each result is handed to `onResult` as it arrives. Rejects
   * with NoDicomAnswer when the PACS cannot be associated, SearchNotOffered when it takes no C-FIND.
   */
  findStudies(
    peer: PacsPeer,
    keys: QueryKeys,
    onResult: (result: DicomAttributes) => Promise<void>,
    options: { cap: number; signal?: AbortSignal },
  ): Promise<FindOutcome>;
  /** Modality Worklist C-FIND: every scheduled procedure step matching the keys, up to the cap. */
  findWorklist(
    peer: PacsPeer,
    keys: QueryKeys,
    options: { cap: number; signal?: AbortSignal },
  ): Promise<{
    results: DicomAttributes[];
    outcome: FindOutcome;
  }>;
  /** Study Root C-MOVE of one study to the peer's calling AE (where our listener takes it). */
  moveStudy(
    peer: PacsPeer,
    studyUid: string,
    options: {
      onRequest?: (messageId: number) => void;
      onProgress?: (progress: MoveProgress) => void;
      signal?: AbortSignal;
    },
  ): Promise<MoveResult>;
  /**
   * C-STOREs the instances on one association, each outcome handed to `onOutcome` as it comes.
   * Rejects when the association cannot be opened (nothing was sent then).
   */
  storeInstances(
    peer: PacsPeer,
    sources: StoreSource[],
    onOutcome: (outcome: StoreOutcome) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void>;
  /**
   * Storage commitment: N-ACTION for `items` under `transactionUid` on an association of its own,
   * then up to `reportWaitMs` (or until `signal` aborts) for the report there, handed to
   * `onReport`. Resolves true when the report came on it; false when it may still come on an
   * association the PACS opens to our listener. Rejects with NoDicomAnswer (no association),
   * CommitmentNotOffered (no context for it) or DimseError (N-ACTION refused).
   */
  requestCommitment(
    peer: PacsPeer,
    transactionUid: string,
    items: readonly CommitmentItem[],
    options: {
      reportWaitMs: number;
      onReport: (report: CommitmentReport) => Promise<ReportAnswer>;
      signal?: AbortSignal;
    },
  ): Promise<boolean>;
}

/** The PACS accepted the association but not the Storage Commitment Push Model. */
export class CommitmentNotOffered extends Error {
  constructor() {
    super('the PACS does not offer storage commitment');
    this.name = 'CommitmentNotOffered';
  }
}

export interface PacsClientOptions {
  /**
   * The address to connect to for a peer's host, checked at every connection (DicomPeerGuard):
   * rejects when the host may not be reached. Default: the host as given.
   */
  address?: (host: string) => Promise<string>;
  /** Where the reason a PACS gave no DICOM answer goes (the account sees only NO_DICOM_ANSWER). */
  log?: (line: string) => void;
}

export function dicomPacsClient(options: PacsClientOptions = {}): PacsClient {
  const address = options.address ?? ((host: string) => Promise.resolve(host));
  const log = options.log ?? (() => undefined);
  const unanswered = (peer: PacsPeer, error: unknown): NoDicomAnswer => {
    log(
      `DICOM peer ${peer.aeTitle}@${peer.host}:${peer.port} (calling as ${peer.callingAe}) gave no DICOM answer: ${
        error instanceof Error ? error.message : String(error)
      }`,
    );
    return new NoDicomAnswer();
  };
  /** The peer's host checked and resolved; any failure to associate is NoDicomAnswer. */
  const open = async (peer: PacsPeer, contexts: AssociationOptions['contexts']): Promise<ScuAssociation> => {
    try {
      const host = await address(peer.host);
      return await openAssociation(
        { host, port: peer.port, aeTitle: peer.aeTitle, tls: tlsTo(peer) },
        { callingAe: peer.callingAe, contexts },
      );
    } catch (error) {
      throw unanswered(peer, error);
    }
  };
  return {
    async echo(peer) {
      try {
        const host = await address(peer.host);
        await echo(
          { host, port: peer.port, aeTitle: peer.aeTitle, tls: tlsTo(peer) },
          { callingAe: peer.callingAe },
        );
      } catch (error) {
        throw unanswered(peer, error);
      }
    },
    async findStudies(peer, keys, onResult, findOptions) {
      const association = await open(peer, findContexts('study-root'));
      try {
        const stream = association.find({ model: 'study-root', level: 'STUDY', keys }, findOptions);
        for await (const result of stream) await onResult(result);
        return stream.outcome!;
      } catch (error) {
        if (error instanceof AssociationError && error.kind === 'no-context') throw new SearchNotOffered();
        throw error;
      } finally {
        if (association.usable) await association.release();
      }
    },
    async findWorklist(peer, keys, findOptions) {
      const association = await open(peer, findContexts('worklist'));
      try {
        const stream = association.find({ model: 'worklist', keys }, findOptions);
        const results: DicomAttributes[] = [];
        for await (const result of stream) results.push(result);
        return { results, outcome: stream.outcome! };
      } finally {
        if (association.usable) await association.release();
      }
    },
    async moveStudy(peer, studyUid, moveOptions) {
      const association = await open(peer, moveContexts('study-root'));
      try {
        return await association.move(
          { model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID: studyUid } },
          peer.callingAe,
          moveOptions,
        );
      } finally {
        if (association.usable) await association.release();
      }
    },
    async requestCommitment(peer, transactionUid, items, commitOptions) {
      const association = await open(peer, [STORAGE_COMMITMENT_CONTEXT]);
      try {
        return await association.commit(transactionUid, items, commitOptions);
      } catch (error) {
        if (error instanceof AssociationError && error.kind === 'no-context')
          throw new CommitmentNotOffered();
        throw error;
      } finally {
        if (association.usable) await association.release();
      }
    },
    async storeInstances(peer, sources, onOutcome, signal) {
      const association = await open(peer, storageContexts(sources));
      const abort = () => association.abort('the push was stopped');
      signal?.addEventListener('abort', abort);
      const recorded: Promise<void>[] = [];
      try {
        await association.storeAll(sources, { onOutcome: (outcome) => recorded.push(onOutcome(outcome)) });
      } finally {
        signal?.removeEventListener('abort', abort);
        await Promise.all(recorded);
        if (association.usable) await association.release();
      }
    },
  };
}

/**
 * The peer's TLS settings, its certificate checked against the host as configured: the address
 * guard hands us the IP it resolved, which a certificate for the host name does not name.
 */
function tlsTo(peer: PacsPeer): PacsPeer['tls'] {
  return peer.tls && { ...peer.tls, serverName: peer.tls.serverName ?? peer.host };
}
