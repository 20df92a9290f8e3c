import type { MailMessages } from './en.js';

/** The e-mails' texts in French (keys and placeholders as in en.ts). */
export const fr: MailMessages = {
  'common.greeting': 'Bonjour {name},',
  'common.examReference': "Référence de l'examen (Study UUID dans la recherche avancée) : {studyUuid}",
  'common.noPatientDetails':
    "Ce message ne contient volontairement aucune donnée patient : connectez-vous pour voir l'examen.",

  'harvest.subject': 'Nouvel examen reçu dans {group}',
  'harvest.yourGroup': 'votre groupe',
  'harvest.arrived':
    "Un nouvel examen est arrivé dans {group}, envoyé par l'émetteur DICOM {sender} ({aeTitle}).",
  'harvest.modality': 'Modalité : {modality}.',
  'harvest.images': 'Images : {count}.',
  'harvest.open': 'Ouvrez-le dans la boîte de réception : {link}',
  'harvest.why':
    'Vous recevez ce message car la notification « Reçu depuis la passerelle » est activée pour {group}. Vous pouvez la modifier dans vos paramètres de notification : {settingsLink}',

  'share.subjectGroup': 'Un examen a été partagé avec {group}',
  'share.subjectYou': 'Un examen a été partagé avec vous',
  'share.sharedGroup': '{sharedBy} a partagé un examen avec le groupe {group}.',
  'share.sharedYou': '{sharedBy} a partagé un examen avec vous.',
  'share.messageFrom': 'Message de {sharedBy} :',
  'share.open': 'Ouvrir la boîte de réception : {link}',
  'share.why':
    'Vous recevez ce message car la notification « Partagé avec moi » est activée pour {preferenceIn}. Vous pouvez la modifier dans vos paramètres de notification : {settingsLink}',

  'nomination.subject': 'Un examen a été proposé à {gatekeeper}',
  'nomination.nominated':
    '{nominatedBy} a proposé un examen de {source} à {gatekeeper} (priorité : {priority}). Il attend dans les propositions d’être traité ou refusé.',
  'nomination.open': 'Ouvrir les propositions : {link}',
  'nomination.why':
    'Vous recevez ce message car la notification « Proposé aux groupes de contrôle » est activée pour {gatekeeper}. Vous pouvez la modifier dans vos paramètres de notification : {settingsLink}',

  'passwordReset.subject': 'Réinitialisez votre mot de passe Imaging Inbox',
  'passwordReset.body':
    "Une demande de réinitialisation du mot de passe de {email} a été faite.\n\nOuvrez ce lien dans l'heure pour choisir un nouveau mot de passe :\n{link}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message.",

  'twoFactorReset.subject': 'Votre connexion en deux étapes a été réinitialisée',
  'twoFactorReset.body':
    "{admin}, administrateur de {account}, a réinitialisé la connexion en deux étapes de {email} : les codes de votre application d'authentification et vos codes de secours ne fonctionnent plus.\n\nVous vous connectez désormais avec votre seul mot de passe, ou configurez de nouveau les codes à votre prochaine connexion si votre compte les exige :\n{link}\n\nSi vous n'avez rien demandé, prévenez aussitôt votre administrateur : votre mot de passe est désormais la seule protection de votre compte.",

  'invite.subject': 'Vous êtes invité(e) à rejoindre {account} sur Imaging Inbox',
  'invite.added':
    '{inviter} vous invite à rejoindre {account} sur Imaging Inbox.\n\nConnectez-vous avec {email} et acceptez l’invitation dans le menu des comptes (rien n’est partagé avec {account} avant) :\n{link}',
  'invite.invited':
    '{inviter} vous invite à rejoindre {account} sur Imaging Inbox.\n\nOuvrez ce lien dans les 7 jours pour choisir votre mot de passe (il ne fonctionne qu’une fois) :\n{link}\n\nConnectez-vous ensuite avec {email}.',

  'requestLink.subject': "{requester} vous demande d'envoyer un examen dans {group}",
  'requestLink.asks':
    "{requester} ({requesterEmail}) vous demande d'envoyer des examens d'imagerie dans {group}.",
  'requestLink.message': 'Message : {message}',
  'requestLink.upload': 'Envoyez-les ici : {link}',
  'requestLink.password':
    'Le lien est protégé par un mot de passe que le demandeur vous communiquera séparément.',
  'requestLink.validity': 'Le lien est valable {minutes} minutes.',

  'requestLinkUsed.subject': 'Votre demande d’examen à {email} a été utilisée',
  'requestLinkUsed.body':
    '{email} a ouvert votre lien de demande d’examen pour {group} et peut maintenant envoyer des examens.',

  'sendLink.subject': '{sender} vous a envoyé un examen',
  'sendLink.someone': 'Un confrère',
  'sendLink.sent': "{sender} vous a envoyé un examen d'imagerie via Imaging Inbox.",
  'sendLink.message': 'Message : {message}',
  'sendLink.open': 'Ouvrez-le ici (il vous sera demandé de confirmer cette adresse e-mail) :',
  'sendLink.until': "Le lien fonctionne jusqu'au {date}.",

  'sendCode.subject': "Votre code pour ouvrir l'examen qui vous a été envoyé",
  'sendCode.body': 'Votre code est {code}. Il est valable {minutes} minutes, pour une seule utilisation.',
};
