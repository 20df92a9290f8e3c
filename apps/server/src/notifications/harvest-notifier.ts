import type { Mail, Mailer } from '../mail/mailer.js';
import type { AccountsRepository } from '../repositories/accounts.repository.js';
import type { DicomNodesRepository } from '../repositories/dicom-nodes.repository.js';
import type {
  HarvestNoticeRow,
  HarvestNoticesRepository,
} from '../repositories/harvest-notices.repository.js';
import type { IndexTarget } from '../repositories/ingest.repository.js';
import type { StudiesRepository } from '../repositories/studies.repository.js';
import type { UserEventsRepository } from '../repositories/user-events.repository.js';
import { harvestMail } from './mail-texts.js';

/**
 * What the ingest pipeline reports after storing a new instance. Listeners are told the source's
 * kind (upload, stow, cstore, link, retrieve, wrap) and nothing else of the ingest service's
 * IngestSource, so this file does not know the service that imports it.
 */
export interface StoredInstance {
  studyUuid: string;
  studyCreated: boolean;
  target: IndexTarget;
  source: { kind: string };
}

export interface HarvestNotifierDeps {
  notices: HarvestNoticesRepository;
  studies: StudiesRepository;
  accounts: AccountsRepository;
  nodes: DicomNodesRepository;
  userEvents: UserEventsRepository;
  mailer: Mailer;
  publicUrl: string;
  /** How long a study must receive nothing before its mail leaves. */
  quietMs: number;
  log: (line: string) => void;
  now?: () => number;
}

/** A claimed notice is this process's for this long; after that another process may retry it. */
const CLAIM_MS = 5 * 60 * 1000;
const MAX_ATTEMPTS = 5;
const BATCH = 50;

/**
 * "Harvested from gateway" mails: one per study received through the DICOM listener, to the
 * members of the receiving group who opted into event_harvest there.
 *
 * A sender delivers a study as many C-STOREs, possibly over several associations, so the mail
 * waits until the study has been quiet (no new instance for `quietMs`, read from the study's
 * `updated` time). The pending mail is a row written when the study's first instance arrives
 * (one write per study, not per instance), so it survives a restart and any app process can send
 * it; claiming a row before sending keeps two processes from both mailing.
 */
export class HarvestNotifier {
  private readonly now: () => number;
  constructor(private readonly deps: HarvestNotifierDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Called by the ingest pipeline for each new instance; only a study's first C-STORE counts. */
  async noteStored(event: StoredInstance): Promise<void> {
    if (event.source.kind !== 'cstore' || !event.studyCreated) return;
    const now = this.now();
    try {
      await this.deps.notices.add({
        study_uuid: event.studyUuid,
        account_id: event.target.accountId,
        namespace_id: event.target.namespaceId,
        source_ae_title: event.target.sourceAeTitle ?? '',
        created: now,
        due_at: now + this.deps.quietMs,
      });
    } catch (error) {
      // The instance is stored and acknowledged either way; a lost notice only loses a mail.
      this.deps.log(`Could not record the harvest mail of study ${event.studyUuid}: ${String(error)}`);
    }
  }

  /** Sends the mails of every study that has been quiet long enough; answers how many studies. */
  async flushDue(): Promise<number> {
    let sent = 0;
    for (const notice of await this.deps.notices.due(this.now(), BATCH)) {
      if (!(await this.deps.notices.claim(notice, this.now() + CLAIM_MS))) continue;
      try {
        if (await this.deliver(notice)) sent++;
      } catch (error) {
        await this.retryLater(notice, error);
      }
    }
    return sent;
  }

  /** Mails the study's recipients; false when it is not quiet yet (the notice is postponed). */
  private async deliver(notice: HarvestNoticeRow): Promise<boolean> {
    const study = await this.deps.studies.findByUuid(notice.study_uuid);
    if (!study || study.deleted !== null) {
      await this.deps.notices.remove(notice.study_uuid);
      return false;
    }
    const quietFrom = Number(study.updated) + this.deps.quietMs;
    if (quietFrom > this.now()) {
      await this.deps.notices.postpone(notice.study_uuid, quietFrom);
      return false;
    }
    const recipients = await this.deps.mailer.languages.readers(
      await this.deps.userEvents.recipients(notice.namespace_id, 'event_harvest'),
    );
    const mails: Mail[] = [];
    if (recipients.length) {
      const group = await this.deps.accounts.groupOfNamespace(notice.namespace_id);
      const node = await this.deps.nodes.findByAeTitle(notice.source_ae_title);
      for (const to of recipients) {
        mails.push(
          harvestMail({
            to,
            groupName: group?.name,
            senderName: node?.name ?? notice.source_ae_title,
            aeTitle: notice.source_ae_title,
            modality: study.modality,
            imageCount: Number(study.image_count),
            studyUuid: study.uuid,
            link: group ? `${this.deps.publicUrl}/group/${group.uuid}` : `${this.deps.publicUrl}/group/list`,
            settingsLink: `${this.deps.publicUrl}/account-settings?tab=notifications`,
          }),
        );
      }
    }
    // The notice goes and its mails are queued in one transaction: SMTP is the mail job's business,
    // so a slow or failing server never makes this notice run (and mail) again.
    const removed = await this.deps.notices.remove(notice.study_uuid, (trx) =>
      mails.length ? this.deps.mailer.queue(mails, trx) : Promise.resolve(),
    );
    if (removed) this.deps.mailer.kick();
    return removed;
  }

  private async retryLater(notice: HarvestNoticeRow, error: unknown): Promise<void> {
    const attempts = Number(notice.attempts) + 1;
    this.deps.log(
      `Harvest mail of study ${notice.study_uuid} failed (attempt ${attempts}): ${String(error)}`,
    );
    if (attempts >= MAX_ATTEMPTS) {
      await this.deps.notices.remove(notice.study_uuid);
      return;
    }
    // 1, 2, 4, 8 minutes: an SMTP server that is down for a while gets time to come back.
    await this.deps.notices.postpone(notice.study_uuid, this.now() + 60_000 * 2 ** (attempts - 1), attempts);
  }
}
