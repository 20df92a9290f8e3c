import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { Mailer } from '../../mail/mailer.js';
import type { UserEventsRepository } from '../../repositories/user-events.repository.js';
import { nominationMail } from '../../notifications/mail-texts.js';

export interface NominatedEvent {
  gatekeeper: { uuid: string; name: string; namespace_id: string };
  source: string;
  nominatedBy: { uuid: string; name: string };
  priority: string;
}

/**
 * "Nominated to gatekeeper groups" mails: the gatekeeper group's members who turned event_nominate
 * on there hear of each nomination (not the nominator about their own). Worked out before the
 * nomination is written and queued in its transaction, so a nomination that fails mails nobody;
 * the outbox's mail job delivers them later.
 */
export class NominationNotifier {
  constructor(
    private readonly deps: { userEvents: UserEventsRepository; mailer: Mailer; publicUrl: string },
  ) {}

  async prepare(event: NominatedEvent): Promise<{
    queue: (trx: Kysely<Database>, copyUuid: string) => Promise<void>;
    kick: () => void;
  }> {
    const recipients = await this.deps.mailer.languages.readers(
      (await this.deps.userEvents.recipients(event.gatekeeper.namespace_id, 'event_nominate')).filter(
        (to) => to.uuid !== event.nominatedBy.uuid,
      ),
    );
    const base = this.deps.publicUrl;
    return {
      queue: async (trx, copyUuid) => {
        if (!recipients.length) return;
        const mails = recipients.map((to) =>
          nominationMail({
            to,
            gatekeeperName: event.gatekeeper.name,
            source: event.source,
            nominatedBy: event.nominatedBy.name,
            priority: event.priority,
            studyUuid: copyUuid,
            link: `${base}/group/${event.gatekeeper.uuid}`,
            settingsLink: `${base}/account-settings?tab=notifications`,
          }),
        );
        await this.deps.mailer.queue(mails, trx);
      },
      kick: () => this.deps.mailer.kick(),
    };
  }
}
