/** The calls around a study's files (SPEC.md section 7, "Storage": study create, then image counts). */
export interface StudyRegistrar {
  /** study/add: makes the study in the group (unlisted while it fills) or finds it; its uuid. */
  add: (namespaceId: string, studyUid: string) => Promise<string>;
  /** study/sync: the upload into the study is over and `imageCount` images reached the server. */
  sync: (uuid: string, imageCount: number) => Promise<void>;
  /** study/sync sent as the page goes away (a request that outlives the page), answer unread. */
  syncOnLeave?: (uuid: string, imageCount: number) => void;
}

export interface RegistrationStudy {
  studyUid: string;
  /** Files of the study this run sends. */
  files: number;
  /** Images of the study an earlier run already got to the server (a retry's starting point). */
  alreadySent: number;
}

export interface RegistrationOptions {
  /** Whether a failed sync is worth another attempt (network, 5xx). */
  retryable: (error: unknown) => boolean;
  retries: number;
  backoffMs: number;
  /** Subscribes to the page going away; returns the unsubscribe. Defaults to the window's pagehide. */
  onPageHide?: (listener: () => void) => () => void;
}

function windowPageHide(listener: () => void): () => void {
  if (typeof window === 'undefined') return () => undefined;
  window.addEventListener('pagehide', listener);
  return () => window.removeEventListener('pagehide', listener);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Ambra's uploader order for one run: each study is created with study/add before its first file
 * goes, and once every file of it has settled (sent, refused or cancelled) study/sync reports how
 * many of its images reached the server, which lists it (NEW, or INCOMPLETE when the group holds
 * fewer). A study/add that fails does not hold the files back: the first file then makes the study
 * itself, listed at once, and there is nothing to sync. A retry run adds again (study/add answers
 * the existing study) and syncs the study's whole count. A page closed mid-upload reports each study
 * it made with the count it should have reached, so the study is listed, marked INCOMPLETE, instead
 * of staying unlisted with the files that did arrive; a later upload of it still completes it.
 */
export class StudyRegistration {
  private readonly added = new Map<string, Promise<string | null>>();
  private readonly uuids = new Map<string, string>();
  private readonly stopListening: () => void;
  private readonly pending = new Map<string, { left: number; sent: number }>();
  private readonly syncs: Promise<void>[] = [];

  constructor(
    private readonly registrar: StudyRegistrar,
    private readonly namespaceId: string,
    studies: readonly RegistrationStudy[],
    private readonly options: RegistrationOptions,
  ) {
    for (const s of studies) this.pending.set(s.studyUid, { left: s.files, sent: s.alreadySent });
    this.stopListening = (options.onPageHide ?? windowPageHide)(() => this.leave());
  }

  /** Resolves once the study exists (or study/add failed); one study/add per study and run. */
  before(studyUid: string): Promise<void> {
    let uuid = this.added.get(studyUid);
    if (!uuid) {
      uuid = this.registrar.add(this.namespaceId, studyUid).then(
        (id) => {
          this.uuids.set(studyUid, id);
          return id;
        },
        () => null,
      );
      this.added.set(studyUid, uuid);
    }
    return uuid.then(() => undefined);
  }

  /** One file of the study settled; the last one reports the study's count. */
  settled(studyUid: string, sent: boolean): void {
    const study = this.pending.get(studyUid);
    if (!study) return;
    study.left--;
    if (sent) study.sent++;
    if (study.left > 0) return;
    this.pending.delete(studyUid);
    const uuid = this.added.get(studyUid);
    // Nothing reached the server: the study stays an unlisted, empty placeholder a later upload fills.
    if (study.sent === 0) return;
    if (uuid) this.syncs.push(uuid.then((id) => (id === null ? undefined : this.sync(id, study.sent))));
  }

  /** Every sync of the run has been answered (or given up). */
  async done(): Promise<void> {
    await Promise.all(this.syncs);
    this.stopListening();
  }

  /** The page goes away: each study made and not yet synced is reported with its full count. */
  private leave(): void {
    for (const [studyUid, study] of this.pending) {
      const uuid = this.uuids.get(studyUid);
      if (uuid && study.sent > 0) this.registrar.syncOnLeave?.(uuid, study.sent + study.left);
    }
  }

  private async sync(uuid: string, imageCount: number): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.registrar.sync(uuid, imageCount);
      } catch (error) {
        // Given up: the study stays unlisted until a retry of the run syncs it (reachable by uuid).
        if (attempt >= this.options.retries || !this.options.retryable(error)) return;
        await sleep(this.options.backoffMs * 2 ** attempt);
      }
    }
  }
}
