import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Mail, Mailer } from '../../mail/mailer.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { MembershipsRepository } from '../../repositories/memberships.repository.js';
import type { ShareTarget } from './shares.repository.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import type { UserEventsRepository } from '../../repositories/user-events.repository.js';
import { shareMail } from '../../notifications/mail-texts.js';

export interface SharedEvent {
  study: StudyRow;
  target: ShareTarget;
  message: string | null;
  sharedBy: { uuid: string; name: string };
}

/** A new share's mails, worked out before the share is written and queued in its transaction. */
export interface ShareMails {
  /** Queues the mails in the share's transaction, given the copy the recipients will open. */
  queue: (trx: Kysely<Database>, copyUuid: string | null) => Promise<void>;
  /** Wakes the delivery job once the share committed. */
  kick: () => void;
}

export interface ShareNotifierDeps {
  accounts: AccountsRepository;
  memberships: MembershipsRepository;
  userEvents: UserEventsRepository;
  mailer: Mailer;
  publicUrl: string;
}

/**
 * "Shared with me" mails. A group share mails the group's members who turned event_share on for
 * the group; a share with one user mails that user if they turned it on for the study's account.
 * (The user's personal 'Shared with me' namespace, where the copy lands, only exists from the first
 * share with them on, so the account namespace holds that preference.) The sharer is never mailed
 * about their own share.
 */
export class ShareNotifier {
  constructor(private readonly deps: ShareNotifierDeps) {}

  /**
   * Works out who is mailed about a new share (reads only), so the share's transaction can write
   * the mails with the share: a share that fails mails nobody, and a share that is saved always
   * has its mails queued. Delivery happens later, in the mail job, never in the sharer's request.
   */
  async prepare({ study, target, message, sharedBy }: SharedEvent): Promise<ShareMails> {
    const compose = await this.compose({ study, target, message, sharedBy });
    return {
      queue: async (trx, copyUuid) => {
        const mails = compose(copyUuid ?? study.uuid);
        if (mails.length) await this.deps.mailer.queue(mails, trx);
      },
      kick: () => this.deps.mailer.kick(),
    };
  }

  private async compose({
    study,
    target,
    message,
    sharedBy,
  }: SharedEvent): Promise<(studyUuid: string) => Mail[]> {
    const settingsLink = `${this.deps.publicUrl}/account-settings?tab=notifications`;
    if (target.type === 'group') {
      const group = await this.deps.accounts.findGroup(target.id);
      if (!group) return () => [];
      const recipients = await this.deps.mailer.languages.readers(
        (await this.deps.userEvents.recipients(group.namespace_id, 'event_share')).filter(
          (to) => to.uuid !== sharedBy.uuid,
        ),
      );
      return (studyUuid) =>
        recipients.map((to) =>
          shareMail({
            to,
            sharedBy: sharedBy.name,
            groupName: group.name,
            preferenceIn: group.name,
            message,
            studyUuid,
            link: `${this.deps.publicUrl}/group/${group.uuid}`,
            settingsLink,
          }),
        );
    }
    const account = await this.deps.accounts.findAccount(study.account_id);
    if (!account) return () => [];
    const recipients = await this.deps.userEvents.recipients(account.namespace_id, 'event_share');
    const found = recipients.find((r) => r.uuid === target.id);
    if (!found || found.uuid === sharedBy.uuid) return () => [];
    const to = { ...found, language: await this.deps.mailer.languages.ofUser(found, found.account_id) };
    // The copy lands in the recipient's personal group, which the web shows as a group of its own.
    const personal = (await this.deps.memberships.personalNamespaces(to.uuid)).find(
      (p) => p.account_id === study.account_id,
    );
    return (studyUuid) => [
      shareMail({
        to,
        sharedBy: sharedBy.name,
        preferenceIn: account.name,
        message,
        studyUuid,
        link: personal ? `${this.deps.publicUrl}/group/${personal.id}` : `${this.deps.publicUrl}/group/list`,
        settingsLink,
      }),
    ];
  }
}
