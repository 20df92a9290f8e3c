import {
  echo,
  findAll,
  findContexts,
  moveContexts,
  openAssociation,
  storageContexts,
  type DicomAttributes,
  type StoreOutcome,
  type StoreSource,
  type FindOutcome,
  type MoveProgress,
  type MoveResult,
  type Peer,
  type QueryKeys,
} from '../dimse/client/index.js';

/**
 * What destinations, Retrieve Study and push ask of a PACS, on the DICOM client (dimse/client) with
 * our AE title as the calling AE. Services and jobs take this narrow interface, so each opens its
 * own association for its own operation and never shares one.
 */
export interface PacsClient {
  /** C-ECHO; resolves on success, rejects with the reason. */
  echo(peer: Peer): Promise<void>;
  /** Study Root C-FIND at STUDY level; each result is handed to `onResult` as it arrives. */
  findStudies(
    peer: Peer,
    keys: QueryKeys,
    onResult: (result: DicomAttributes) => Promise<void>,
    options: { cap: number; signal?: AbortSignal },
  ): Promise<FindOutcome>;
  /** Modality Worklist C-FIND: every scheduled procedure step matching the keys, up to the cap. */
  findWorklist(
    peer: Peer,
    keys: QueryKeys,
    options: { cap: number; signal?: AbortSignal },
  ): Promise<{
    results: DicomAttributes[];
    outcome: FindOutcome;
  }>;
  /** Study Root C-MOVE of one study to `destinationAe`. */
  moveStudy(
    peer: Peer,
    studyUid: string,
    destinationAe: string,
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
    peer: Peer,
    sources: StoreSource[],
    onOutcome: (outcome: StoreOutcome) => Promise<void>,
    signal?: AbortSignal,
  ): Promise<void>;
}

export function dicomPacsClient(callingAe: string): PacsClient {
  return {
    async echo(peer) {
      await echo(peer, { callingAe });
    },
    async findStudies(peer, keys, onResult, options) {
      const association = await openAssociation(peer, { callingAe, contexts: findContexts('study-root') });
      try {
        const stream = association.find({ model: 'study-root', level: 'STUDY', keys }, options);
        for await (const result of stream) await onResult(result);
        return stream.outcome!;
      } finally {
        if (association.usable) await association.release();
      }
    },
    async findWorklist(peer, keys, options) {
      return findAll(peer, { callingAe }, { model: 'worklist', keys }, options);
    },
    async moveStudy(peer, studyUid, destinationAe, options) {
      const association = await openAssociation(peer, { callingAe, contexts: moveContexts('study-root') });
      try {
        return await association.move(
          { model: 'study-root', level: 'STUDY', keys: { StudyInstanceUID: studyUid } },
          destinationAe,
          options,
        );
      } finally {
        if (association.usable) await association.release();
      }
    },
    async storeInstances(peer, sources, onOutcome, signal) {
      const association = await openAssociation(peer, { callingAe, contexts: storageContexts(sources) });
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
