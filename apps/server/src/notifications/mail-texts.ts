import type { Language } from '@imaging-inbox/contract';
import type { Mail } from '../mail/mailer.js';
import { mailTexts } from '../mail/messages/index.js';

/**
 * Texts of the notification mails. They carry no patient details (no name, initials, MRN, birth
 * date, accession number or description): mail leaves the hospital's systems and may be read on
 * any device, so it only says that an exam arrived, where, and links to the inbox, where the
 * reader signs in and the access is audited. The exam reference is the study UUID, which means
 * nothing outside the inbox and can be pasted into the advanced search's Study UUID field.
 */

/** Who a notification goes to, and the language they read (mail/mail-language.ts). */
export interface MailReader {
  email: string;
  name: string;
  language: Language;
}

export interface HarvestMailFacts {
  to: MailReader;
  /** Absent when the group is gone by now. */
  groupName: string | undefined;
  senderName: string;
  aeTitle: string;
  modality: string;
  imageCount: number;
  studyUuid: string;
  link: string;
  settingsLink: string;
}

export function harvestMail(f: HarvestMailFacts): Mail {
  const t = mailTexts(f.to.language);
  const group = f.groupName ?? t('harvest.yourGroup');
  const what = [
    f.modality && t('harvest.modality', { modality: f.modality.replaceAll('\\', ', ') }),
    t('harvest.images', { count: f.imageCount }),
  ]
    .filter(Boolean)
    .join(' ');
  return {
    kind: 'harvest',
    to: f.to.email,
    subject: t('harvest.subject', { group }),
    text: [
      t('common.greeting', { name: f.to.name }),
      '',
      t('harvest.arrived', { group, sender: f.senderName, aeTitle: f.aeTitle }),
      what,
      '',
      t('harvest.open', { link: f.link }),
      t('common.examReference', { studyUuid: f.studyUuid }),
      '',
      t('common.noPatientDetails'),
      t('harvest.why', { group, settingsLink: f.settingsLink }),
    ].join('\n'),
  };
}

export interface ShareMailFacts {
  to: MailReader;
  sharedBy: string;
  /** The group the exam was shared into; absent for a share with the user directly. */
  groupName?: string;
  /** Where the user's preference lives: the group, or the account for a direct share. */
  preferenceIn: string;
  message: string | null;
  studyUuid: string;
  link: string;
  settingsLink: string;
}

export function shareMail(f: ShareMailFacts): Mail {
  const t = mailTexts(f.to.language);
  const { sharedBy } = f;
  return {
    kind: 'share',
    to: f.to.email,
    subject: f.groupName ? t('share.subjectGroup', { group: f.groupName }) : t('share.subjectYou'),
    text: [
      t('common.greeting', { name: f.to.name }),
      '',
      f.groupName
        ? t('share.sharedGroup', { sharedBy, group: f.groupName })
        : t('share.sharedYou', { sharedBy }),
      ...(f.message ? ['', t('share.messageFrom', { sharedBy }), f.message] : []),
      '',
      t('share.open', { link: f.link }),
      t('common.examReference', { studyUuid: f.studyUuid }),
      '',
      t('share.why', { preferenceIn: f.preferenceIn, settingsLink: f.settingsLink }),
    ].join('\n'),
  };
}

export interface NominationMailFacts {
  to: MailReader;
  gatekeeperName: string;
  /** The cloud group it was nominated from. */
  source: string;
  nominatedBy: string;
  priority: string;
  studyUuid: string;
  link: string;
  settingsLink: string;
}

export function nominationMail(f: NominationMailFacts): Mail {
  const t = mailTexts(f.to.language);
  const gatekeeper = f.gatekeeperName;
  return {
    kind: 'nomination',
    to: f.to.email,
    subject: t('nomination.subject', { gatekeeper }),
    text: [
      t('common.greeting', { name: f.to.name }),
      '',
      t('nomination.nominated', {
        nominatedBy: f.nominatedBy,
        source: f.source,
        gatekeeper,
        priority: f.priority,
      }),
      '',
      t('nomination.open', { link: f.link }),
      t('common.examReference', { studyUuid: f.studyUuid }),
      '',
      t('common.noPatientDetails'),
      t('nomination.why', { gatekeeper, settingsLink: f.settingsLink }),
    ].join('\n'),
  };
}
