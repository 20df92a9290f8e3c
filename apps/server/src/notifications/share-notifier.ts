import type { Mailer } from '../mail/mailer.js';
import type { AccountsRepository } from '../repositories/accounts.repository.js';
import type { MembershipsRepository } from '../repositories/memberships.repository.js';
import type { ShareTarget } from '../repositories/shares.repository.js';
import type { StudiesRepository, StudyRow } from '../repositories/studies.repository.js';
import type { UserEventsRepository } from '../repositories/user-events.repository.js';
import { shareMail } from './mail-texts.js';

export interface SharedEvent {
  study: StudyRow;
  target: ShareTarget;
  message: string | null;
  sharedBy: { uuid: string; name: string };
}

export interface ShareNotifierDeps {
  accounts: AccountsRepository;
  memberships: MembershipsRepository;
  studies: StudiesRepository;
  userEvents: UserEventsRepository;
  mailer: Mailer;
  publicUrl: string;
  log: (line: string) => void;
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

  /** Never fails the share: the share is done, a mail that cannot be sent is logged. */
  async shared(event: SharedEvent): Promise<void> {
    try {
      await this.mail(event);
    } catch (error) {
      this.deps.log(`Share mail for study ${event.study.uuid} failed: ${String(error)}`);
    }
  }

  private async mail({ study, target, message, sharedBy }: SharedEvent): Promise<void> {
    const settingsLink = `${this.deps.publicUrl}/account-settings?tab=notifications`;
    if (target.type === 'group') {
      const group = await this.deps.accounts.findGroup(target.id);
      if (!group) return;
      const recipients = await this.deps.userEvents.recipients(group.namespace_id, 'event_share');
      const copy = (await this.deps.studies.findByUid(study.study_uid, [group.namespace_id]))[0];
      for (const to of recipients) {
        if (to.uuid === sharedBy.uuid) continue;
        await this.deps.mailer.send(
          shareMail({
            to,
            sharedBy: sharedBy.name,
            groupName: group.name,
            preferenceIn: group.name,
            message,
            studyUuid: copy?.uuid ?? study.uuid,
            link: `${this.deps.publicUrl}/group/${group.uuid}`,
            settingsLink,
          }),
        );
      }
      return;
    }
    const account = await this.deps.accounts.findAccount(study.account_id);
    if (!account) return;
    const recipients = await this.deps.userEvents.recipients(account.namespace_id, 'event_share');
    const to = recipients.find((r) => r.uuid === target.id);
    if (!to || to.uuid === sharedBy.uuid) return;
    // The copy in the recipient's personal group, which the web shows as a group of its own.
    const personal = (await this.deps.memberships.personalNamespaces(to.uuid)).find(
      (p) => p.account_id === study.account_id,
    );
    const copy = personal
      ? (await this.deps.studies.findByUid(study.study_uid, [personal.id]))[0]
      : undefined;
    await this.deps.mailer.send(
      shareMail({
        to,
        sharedBy: sharedBy.name,
        preferenceIn: account.name,
        message,
        studyUuid: copy?.uuid ?? study.uuid,
        link: personal ? `${this.deps.publicUrl}/group/${personal.id}` : `${this.deps.publicUrl}/group/list`,
        settingsLink,
      }),
    );
  }
}
