/**
 * How each audit action of the product is told to a security team in DICOM terms (PS3.15 A.5.3 and
 * PS3.16 CID 400-403): the EventID, its EventTypeCode if any, the EventActionCode, and the role the
 * other party of a transfer plays. One table, read by action name, so a new action that is not here
 * still goes out (as the fallback at the end) instead of being dropped.
 */

/** A code of the DICOM Controlled Terminology ("DCM"): csd-code and its meaning. */
export interface DcmCode {
  code: string;
  meaning: string;
}

const dcm = (code: string, meaning: string): DcmCode => ({ code, meaning });

export const EVENT = {
  instancesAccessed: dcm('110103', 'DICOM Instances Accessed'),
  instancesTransferred: dcm('110104', 'DICOM Instances Transferred'),
  export: dcm('110106', 'Export'),
  query: dcm('110112', 'Query'),
  securityAlert: dcm('110113', 'Security Alert'),
  userAuthentication: dcm('110114', 'User Authentication'),
} as const;

export const EVENT_TYPE = {
  login: dcm('110122', 'Login'),
  logout: dcm('110123', 'Logout'),
  softwareConfiguration: dcm('110131', 'Software Configuration'),
  objectSecurityAttributesChanged: dcm('110135', 'Object Security Attributes Changed'),
  securityRolesChanged: dcm('110136', 'Security Roles Changed'),
  userSecurityAttributesChanged: dcm('110137', 'User security Attributes Changed'),
} as const;

export const ROLE = {
  application: dcm('110150', 'Application'),
  destination: dcm('110152', 'Destination Role ID'),
  source: dcm('110153', 'Source Role ID'),
  destinationMedia: dcm('110154', 'Destination Media'),
} as const;

export type ActionCode = 'C' | 'R' | 'U' | 'D' | 'E';

export interface EventCodes {
  event: DcmCode;
  type?: DcmCode;
  eventAction: ActionCode;
  /**
   * Where the study went or came from, for transfers and exports: the requesting user is the
   * source (what left) or the destination (what came in), and the other party has the other role.
   */
  direction?: 'out' | 'in';
  /** The other party is a medium (a downloaded file), not a node. */
  media?: boolean;
}

const accessed = (action: ActionCode): EventCodes => ({
  event: EVENT.instancesAccessed,
  eventAction: action,
});
const sentOut: EventCodes = { event: EVENT.instancesTransferred, eventAction: 'R', direction: 'out' };
const cameIn: EventCodes = { event: EVENT.instancesTransferred, eventAction: 'C', direction: 'in' };
const query: EventCodes = { event: EVENT.query, eventAction: 'E' };
const userSecurity: EventCodes = {
  event: EVENT.securityAlert,
  type: EVENT_TYPE.userSecurityAttributesChanged,
  eventAction: 'E',
};

const BY_ACTION: Record<string, EventCodes> = {
  LOGIN: { event: EVENT.userAuthentication, type: EVENT_TYPE.login, eventAction: 'E' },
  LOGOUT: { event: EVENT.userAuthentication, type: EVENT_TYPE.logout, eventAction: 'E' },
  TWO_FACTOR_CODE_FAILED: { event: EVENT.userAuthentication, type: EVENT_TYPE.login, eventAction: 'E' },
  TWO_FACTOR_RECOVERY_CODE_USED: {
    event: EVENT.userAuthentication,
    type: EVENT_TYPE.login,
    eventAction: 'E',
  },
  PASSWORD_CHANGE: userSecurity,
  PASSWORD_RESET: userSecurity,
  PASSWORD_RESET_REQUEST: userSecurity,
  TWO_FACTOR_ENROL: userSecurity,
  TWO_FACTOR_DISABLE: userSecurity,
  TWO_FACTOR_RESET: userSecurity,
  PROFILE_EDIT: userSecurity,
  MEMBER_SET: { event: EVENT.securityAlert, type: EVENT_TYPE.securityRolesChanged, eventAction: 'U' },
  MEMBER_DELETE: { event: EVENT.securityAlert, type: EVENT_TYPE.securityRolesChanged, eventAction: 'D' },
  STUDY_VIEW: accessed('R'),
  THUMBNAIL_VIEW: accessed('R'),
  ATTACHMENT_VIEW: accessed('R'),
  ATTACHMENT_LIST: accessed('R'),
  VIEWER_TOKEN: accessed('R'),
  STUDY_EXISTS: accessed('R'),
  STUDY_DOWNLOAD: { event: EVENT.export, eventAction: 'R', direction: 'out', media: true },
  SHARE: sentOut,
  STUDY_SEND: sentOut,
  PUSH: sentOut,
  PUSH_END: sentOut,
  ROUTE: sentOut,
  DICOM_MOVE: sentOut,
  DICOM_GET: sentOut,
  RETRIEVE: cameIn,
  RETRIEVE_END: cameIn,
  STUDY_UPLOAD: cameIn,
  STUDY_ADD: cameIn,
  IMAGE_ADD: cameIn,
  LINK_USE: cameIn,
  DICOM_FIND: query,
  STUDY_SEARCH: query,
  ORDER_SEARCH: query,
  DESTINATION_SEARCH: query,
  DESTINATION_SEARCH_END: query,
  SMART_SEARCH: query,
  PURGE: accessed('D'),
};

/** Words in an action that say the study left de-identified: an export whatever the path. */
const DEIDENTIFIED = /ANONYMI[SZ]|DEIDENTIF/;

/**
 * The DICOM codes of one audit event: the table above; then de-identified exports; then a change
 * (CREATE/EDIT/UPDATE/DELETE) to a study as its instances accessed, and to anything else an
 * administrator keeps (a destination, a node, a rule, a setting) as a Software Configuration alert;
 * anything else about a study as read, and the rest as a Security Alert of that action.
 */
export function codesFor(action: string, objectType: string): EventCodes {
  const known = BY_ACTION[action];
  if (known) return known;
  // A share is recorded as the share's CREATE or DELETE on the study: a copy sent to a user or
  // group, or that copy's access taken back.
  if (objectType === 'share')
    return action === 'DELETE'
      ? { event: EVENT.securityAlert, type: EVENT_TYPE.objectSecurityAttributesChanged, eventAction: 'D' }
      : sentOut;
  if (DEIDENTIFIED.test(action)) return { event: EVENT.export, eventAction: 'R', direction: 'out' };
  const change = changeCode(action);
  if (objectType === 'study') return accessed(change ?? 'R');
  return { event: EVENT.securityAlert, type: EVENT_TYPE.softwareConfiguration, eventAction: change ?? 'E' };
}

function changeCode(action: string): ActionCode | undefined {
  if (/(^|_)(CREATE|ADD|SET)($|_)/.test(action)) return 'C';
  if (/(^|_)(EDIT|UPDATE)($|_)/.test(action)) return 'U';
  if (/(^|_)(DELETE|REMOVE|REVOKE|CANCEL)($|_)/.test(action)) return 'D';
  return undefined;
}
