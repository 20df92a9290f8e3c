/**
 * The e-mails' texts in English, the reference table: fr.ts and es.ts carry the same keys with the
 * same {placeholders} (test/mail/mail-messages.test.ts fails on a key or placeholder missing there).
 * Mails carry no patient details (see notifications/mail-texts.ts), so no placeholder holds any.
 */
export const en = {
  'common.greeting': 'Hello {name},',
  'common.examReference': 'Exam reference (Study UUID in the advanced search): {studyUuid}',
  'common.noPatientDetails': 'This mail contains no patient details on purpose: sign in to see the exam.',

  'harvest.subject': 'New exam received in {group}',
  'harvest.yourGroup': 'your group',
  'harvest.arrived': 'A new exam has arrived in {group} from the DICOM sender {sender} ({aeTitle}).',
  'harvest.modality': 'Modality: {modality}.',
  'harvest.images': 'Images: {count}.',
  'harvest.open': 'Open it in the inbox: {link}',
  'harvest.why':
    'You receive it because "Harvested from gateway" is on for {group}. Change this in your notification settings: {settingsLink}',

  'share.subjectGroup': 'An exam was shared with {group}',
  'share.subjectYou': 'An exam was shared with you',
  'share.sharedGroup': '{sharedBy} shared an exam with the group {group}.',
  'share.sharedYou': '{sharedBy} shared an exam with you.',
  'share.messageFrom': 'Message from {sharedBy}:',
  'share.open': 'Open the inbox: {link}',
  'share.why':
    'You receive this mail because "Shared with me" is on for {preferenceIn}. Change this in your notification settings: {settingsLink}',

  'nomination.subject': 'An exam was nominated to {gatekeeper}',
  'nomination.nominated':
    '{nominatedBy} nominated an exam from {source} to {gatekeeper} (priority: {priority}). It waits in Nominations to be processed or rejected.',
  'nomination.open': 'Open the nominations: {link}',
  'nomination.why':
    'You receive it because "Nominated to gatekeeper groups" is on for {gatekeeper}. Change this in your notification settings: {settingsLink}',

  'passwordReset.subject': 'Reset your Imaging Inbox password',
  'passwordReset.body':
    'Someone asked to reset the password of {email}.\n\nOpen this link within one hour to choose a new password:\n{link}\n\nIf it was not you, ignore this message.',

  'twoFactorReset.subject': 'Your two-factor sign-in was reset',
  'twoFactorReset.body':
    '{admin}, an administrator of {account}, reset the two-factor sign-in of {email}: the codes of your authenticator app and your recovery codes no longer work.\n\nYou now sign in with your password alone, or set up codes again at your next sign-in when your account requires them:\n{link}\n\nIf you did not ask for this, tell your administrator at once: your password is now the only thing protecting your account.',

  'invite.subject': 'You are invited to {account} on Imaging Inbox',
  'invite.added':
    '{inviter} invited you to join {account} on Imaging Inbox.\n\nSign in as {email} and accept the invitation in the account menu (nothing is shared with {account} until you do):\n{link}',
  'invite.invited':
    '{inviter} invited you to {account} on Imaging Inbox.\n\nOpen this link within 7 days to choose your password (it works once):\n{link}\n\nThen sign in as {email}.',

  'requestLink.subject': '{requester} asks you to upload a study to {group}',
  'requestLink.asks': '{requester} ({requesterEmail}) asks you to upload imaging exams to {group}.',
  'requestLink.message': 'Message: {message}',
  'requestLink.upload': 'Upload here: {link}',
  'requestLink.password': 'The link is protected by a password the requester will give you separately.',
  'requestLink.validity': 'The link is valid for {minutes} minutes.',

  'requestLinkUsed.subject': 'Your study request to {email} was used',
  'requestLinkUsed.body': '{email} opened your study request link for {group} and can now upload exams.',

  'sendLink.subject': '{sender} sent you an exam',
  'sendLink.someone': 'A colleague',
  'sendLink.sent': '{sender} sent you an imaging exam through Imaging Inbox.',
  'sendLink.message': 'Message: {message}',
  'sendLink.open': 'Open it here (you will be asked to confirm this e-mail address):',
  'sendLink.until': 'The link works until {date}.',

  'sendCode.subject': 'Your code to open the exam sent to you',
  'sendCode.body': 'Your code is {code}. It works for {minutes} minutes, once.',
} as const;

export type MailMessageKey = keyof typeof en;
export type MailMessages = Record<MailMessageKey, string>;
