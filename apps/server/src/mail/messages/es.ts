import type { MailMessages } from './en.js';

/** The e-mails' texts in Spanish (keys and placeholders as in en.ts). */
export const es: MailMessages = {
  'common.greeting': 'Hola, {name}:',
  'common.examReference': 'Referencia del estudio (Study UUID en la búsqueda avanzada): {studyUuid}',
  'common.noPatientDetails':
    'Este correo no incluye datos del paciente a propósito: inicie sesión para ver el estudio.',

  'harvest.subject': 'Nuevo estudio recibido en {group}',
  'harvest.yourGroup': 'su grupo',
  'harvest.arrived': 'Ha llegado un nuevo estudio a {group} desde el emisor DICOM {sender} ({aeTitle}).',
  'harvest.modality': 'Modalidad: {modality}.',
  'harvest.images': 'Imágenes: {count}.',
  'harvest.open': 'Ábralo en la bandeja de entrada: {link}',
  'harvest.why':
    'Recibe este correo porque la notificación «Recibido desde la pasarela» está activada para {group}. Puede cambiarlo en su configuración de notificaciones: {settingsLink}',

  'share.subjectGroup': 'Se ha compartido un estudio con {group}',
  'share.subjectYou': 'Se ha compartido un estudio con usted',
  'share.sharedGroup': '{sharedBy} ha compartido un estudio con el grupo {group}.',
  'share.sharedYou': '{sharedBy} ha compartido un estudio con usted.',
  'share.messageFrom': 'Mensaje de {sharedBy}:',
  'share.open': 'Abrir la bandeja de entrada: {link}',
  'share.why':
    'Recibe este correo porque la notificación «Compartido conmigo» está activada para {preferenceIn}. Puede cambiarlo en su configuración de notificaciones: {settingsLink}',

  'nomination.subject': 'Se ha propuesto un estudio a {gatekeeper}',
  'nomination.nominated':
    '{nominatedBy} ha propuesto un estudio de {source} a {gatekeeper} (prioridad: {priority}). Está en Propuestas, a la espera de ser procesado o rechazado.',
  'nomination.open': 'Abrir las propuestas: {link}',
  'nomination.why':
    'Recibe este correo porque la notificación «Propuesto a grupos de control» está activada para {gatekeeper}. Puede cambiarlo en su configuración de notificaciones: {settingsLink}',

  'passwordReset.subject': 'Restablezca su contraseña de Imaging Inbox',
  'passwordReset.body':
    'Alguien ha solicitado restablecer la contraseña de {email}.\n\nAbra este enlace en el plazo de una hora para elegir una contraseña nueva:\n{link}\n\nSi no ha sido usted, ignore este mensaje.',

  'twoFactorReset.subject': 'Se ha restablecido su inicio de sesión en dos pasos',
  'twoFactorReset.body':
    '{admin}, administrador de {account}, ha restablecido el inicio de sesión en dos pasos de {email}: los códigos de su aplicación de autenticación y sus códigos de recuperación ya no funcionan.\n\nAhora inicia sesión solo con su contraseña, o vuelve a configurar los códigos en su próximo inicio de sesión si su cuenta los exige:\n{link}\n\nSi no lo ha pedido, avise de inmediato a su administrador: su contraseña es ahora lo único que protege su cuenta.',

  'invite.subject': 'Le han invitado a {account} en Imaging Inbox',
  'invite.added':
    '{inviter} le invita a unirse a {account} en Imaging Inbox.\n\nInicie sesión como {email} y acepte la invitación en el menú de cuentas (nada se comparte con {account} hasta entonces):\n{link}',
  'invite.invited':
    '{inviter} le ha invitado a {account} en Imaging Inbox.\n\nAbra este enlace en un plazo de 7 días para elegir su contraseña (solo funciona una vez):\n{link}\n\nDespués, inicie sesión como {email}.',

  'requestLink.subject': '{requester} le pide que suba un estudio a {group}',
  'requestLink.asks': '{requester} ({requesterEmail}) le pide que suba estudios de imagen a {group}.',
  'requestLink.message': 'Mensaje: {message}',
  'requestLink.upload': 'Súbalos aquí: {link}',
  'requestLink.password':
    'El enlace está protegido con una contraseña que el solicitante le dará por separado.',
  'requestLink.validity': 'El enlace es válido durante {minutes} minutos.',

  'requestLinkUsed.subject': 'Se ha usado su solicitud de estudios a {email}',
  'requestLinkUsed.body':
    '{email} ha abierto su enlace de solicitud de estudios para {group} y ya puede subir estudios.',

  'sendLink.subject': '{sender} le ha enviado un estudio',
  'sendLink.someone': 'Un colega',
  'sendLink.sent': '{sender} le ha enviado un estudio de imagen a través de Imaging Inbox.',
  'sendLink.message': 'Mensaje: {message}',
  'sendLink.open': 'Ábralo aquí (se le pedirá que confirme esta dirección de correo electrónico):',
  'sendLink.until': 'El enlace funciona hasta el {date}.',

  'sendCode.subject': 'Su código para abrir el estudio que le han enviado',
  'sendCode.body': 'Su código es {code}. Es válido durante {minutes} minutos y solo una vez.',
};
