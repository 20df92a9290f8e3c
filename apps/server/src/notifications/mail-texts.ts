import type { Mail } from '../mail/mailer.js';

/**
 * Texts of the notification mails. They carry no patient details (no name, initials, MRN, birth
 * date, accession number or description): mail leaves the hospital's systems and may be read on
 * any device, so it only says that an exam arrived, where, and links to the inbox, where the
 * reader signs in and the access is audited. The exam reference is the study UUID, which means
 * nothing outside the inbox and can be pasted into the advanced search's Study UUID field.
 */

export interface HarvestMailFacts {
  to: { email: string; name: string };
  groupName: string;
  senderName: string;
  aeTitle: string;
  modality: string;
  imageCount: number;
  studyUuid: string;
  link: string;
  settingsLink: string;
}

export function harvestMail(f: HarvestMailFacts): Mail {
  const what = [f.modality && `Modality: ${f.modality.replaceAll('\\', ', ')}.`, `Images: ${f.imageCount}.`]
    .filter(Boolean)
    .join(' ');
  return {
    kind: 'harvest',
    to: f.to.email,
    subject: `New exam received in ${f.groupName}`,
    text: [
      `Hello ${f.to.name},`,
      '',
      `A new exam has arrived in ${f.groupName} from the DICOM sender ${f.senderName} (${f.aeTitle}).`,
      what,
      '',
      `Open it in the inbox: ${f.link}`,
      `Exam reference (Study UUID in the advanced search): ${f.studyUuid}`,
      '',
      'This mail contains no patient details on purpose: sign in to see the exam.',
      `You receive it because "Harvested from gateway" is on for ${f.groupName}. Change this in your notification settings: ${f.settingsLink}`,
    ].join('\n'),
  };
}

export interface ShareMailFacts {
  to: { email: string; name: string };
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
  const withWhom = f.groupName ? `the group ${f.groupName}` : 'you';
  return {
    kind: 'share',
    to: f.to.email,
    subject: f.groupName ? `An exam was shared with ${f.groupName}` : 'An exam was shared with you',
    text: [
      `Hello ${f.to.name},`,
      '',
      `${f.sharedBy} shared an exam with ${withWhom}.`,
      ...(f.message ? ['', `Message from ${f.sharedBy}:`, f.message] : []),
      '',
      `Open the inbox: ${f.link}`,
      `Exam reference (Study UUID in the advanced search): ${f.studyUuid}`,
      '',
      `You receive this mail because "Shared with me" is on for ${f.preferenceIn}. Change this in your notification settings: ${f.settingsLink}`,
    ].join('\n'),
  };
}

export interface NominationMailFacts {
  to: { email: string; name: string };
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
  return {
    kind: 'nomination',
    to: f.to.email,
    subject: `An exam was nominated to ${f.gatekeeperName}`,
    text: [
      `Hello ${f.to.name},`,
      '',
      `${f.nominatedBy} nominated an exam from ${f.source} to ${f.gatekeeperName} (priority: ${f.priority}). It waits in Nominations to be processed or rejected.`,
      '',
      `Open the nominations: ${f.link}`,
      `Exam reference (Study UUID in the advanced search): ${f.studyUuid}`,
      '',
      'This mail contains no patient details on purpose: sign in to see the exam.',
      `You receive it because "Nominated to gatekeeper groups" is on for ${f.gatekeeperName}. Change this in your notification settings: ${f.settingsLink}`,
    ].join('\n'),
  };
}
