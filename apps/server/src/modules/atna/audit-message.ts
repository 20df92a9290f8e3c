import type { DcmCode, EventCodes } from './audit-codes.js';
import { codesFor, ROLE } from './audit-codes.js';

/** One queued audit event as the sender reads it: the audit row, who acted and the study then. */
export interface QueuedEvent {
  /** The queue row (atna_outbox.id): the order messages go out in. */
  queueId: number;
  /** The audit event (audit_events.id). */
  eventId: number;
  at: number;
  userId: string | null;
  userEmail: string | null;
  userName: string | null;
  accountId: string | null;
  action: string;
  objectType: string;
  objectId: string | null;
  outcome: string;
  /** The event's detail (JSON text): only named fields of it are read, never passed on whole. */
  detail: string | null;
  ip: string | null;
  /** The study the event is about, as it was when the event was recorded. */
  study: { uid: string; patientId: string; patientName: string; accession: string } | null;
}

/** Who sends the messages (AuditSourceIdentification and the application participant). */
export interface AuditSource {
  /** AuditSourceID: this installation (ATNA_SOURCE_ID, the host name by default). */
  sourceId: string;
  /** AuditEnterpriseSiteID (ATNA_SITE_ID): the hospital's site, when set. */
  siteId: string | undefined;
  /** The application's name (ATNA_APP_NAME), also the syslog APP-NAME. */
  appName: string;
}

/** Our local coding scheme for the product's own action names (PS3.16 8.2: local schemes start 99). */
const LOCAL_SCHEME = '99IMGINBOX';

/**
 * The DICOM Audit Message (PS3.15 A.5.1) of one audit event: EventIdentification with its DCM codes
 * and the product's action as an extra EventTypeCode, the requesting user (or node, or visitor) and
 * the application as ActiveParticipants, the AuditSourceIdentification, and the patient and study
 * (or the administered object, or the query) as ParticipantObjectIdentification.
 */
export function auditMessageXml(event: QueuedEvent, source: AuditSource): string {
  const codes = codesFor(event.action, event.objectType);
  const detail = parseDetail(event.detail);
  const failed = event.outcome !== 'SUCCESS';
  const parts: string[] = ['<?xml version="1.0" encoding="UTF-8"?>', '<AuditMessage>'];

  parts.push(
    el(
      'EventIdentification',
      {
        EventActionCode: codes.eventAction,
        EventDateTime: new Date(event.at).toISOString(),
        EventOutcomeIndicator: failed ? '4' : '0',
      },
      [
        coded('EventID', codes.event),
        ...(codes.type ? [coded('EventTypeCode', codes.type)] : []),
        el('EventTypeCode', {
          'csd-code': event.action,
          codeSystemName: LOCAL_SCHEME,
          originalText: event.action,
        }),
        ...(failed ? [el('EventOutcomeDescription', {}, [text(failureText(event, detail))])] : []),
      ],
    ),
  );

  parts.push(requestor(event, detail, codes));
  parts.push(
    el(
      'ActiveParticipant',
      {
        UserID: source.appName,
        AlternativeUserID: source.sourceId,
        UserIsRequestor: 'false',
      },
      [coded('RoleIDCode', ROLE.application)],
    ),
  );
  const other = otherParty(event, detail, codes);
  if (other) parts.push(other);

  parts.push(
    el(
      'AuditSourceIdentification',
      {
        ...(source.siteId ? { AuditEnterpriseSiteID: source.siteId } : {}),
        AuditSourceID: source.sourceId,
      },
      [
        el('AuditSourceTypeCode', {
          'csd-code': '4',
          codeSystemName: 'DCM',
          originalText: 'Application Server Process Tier in Multi-tier System',
        }),
      ],
    ),
  );

  parts.push(...participantObjects(event, detail));
  parts.push('</AuditMessage>');
  return parts.join('');
}

/** Who asked: a signed-in user, else the DICOM node or the typed login or a link's visitor. */
function requestor(event: QueuedEvent, detail: Record<string, unknown>, codes: EventCodes): string {
  const callingAe = str(detail.calling_ae);
  const user = event.userId
    ? {
        UserID: event.userEmail ?? event.userId,
        AlternativeUserID: event.userId,
        UserName: event.userName ?? undefined,
      }
    : callingAe
      ? { UserID: callingAe, AlternativeUserID: `AETITLES=${callingAe}` }
      : { UserID: str(detail.login) ?? 'anonymous' };
  const roles =
    codes.direction === 'out'
      ? [coded('RoleIDCode', ROLE.source)]
      : codes.direction === 'in'
        ? [coded('RoleIDCode', ROLE.destination)]
        : [];
  return el(
    'ActiveParticipant',
    {
      ...user,
      UserIsRequestor: 'true',
      ...(event.ip ? { NetworkAccessPointID: event.ip, NetworkAccessPointTypeCode: '2' } : {}),
    },
    roles,
  );
}

/** The other end of a transfer or export: the downloaded file, or where the study went or came from. */
function otherParty(
  event: QueuedEvent,
  detail: Record<string, unknown>,
  codes: EventCodes,
): string | undefined {
  if (!codes.direction) return undefined;
  if (codes.media)
    return el(
      'ActiveParticipant',
      {
        UserID: event.ip ?? 'download',
        UserIsRequestor: 'false',
        ...(event.ip ? { NetworkAccessPointID: event.ip, NetworkAccessPointTypeCode: '2' } : {}),
      },
      [coded('RoleIDCode', ROLE.destinationMedia)],
    );
  const name = firstOf(detail, [
    'target_id',
    'destination',
    'destination_id',
    'group',
    'group_id',
    'to',
    'recipient',
    'node',
    'aet',
    'calling_ae',
    'source',
  ]);
  if (!name) return undefined;
  return el('ActiveParticipant', { UserID: name, UserIsRequestor: 'false' }, [
    coded('RoleIDCode', codes.direction === 'out' ? ROLE.destination : ROLE.source),
  ]);
}

function participantObjects(event: QueuedEvent, detail: Record<string, unknown>): string[] {
  const objects: string[] = [];
  const context = [
    valuePair('Action', event.action),
    ...(event.accountId ? [valuePair('Account', event.accountId)] : []),
    ...(event.objectId ? [valuePair(`${event.objectType}`, event.objectId)] : []),
    valuePair('AuditEventID', String(event.eventId)),
  ];
  // A de-identified export (a download with a profile): the copy that left carried no identity.
  const deidentified = detail.deidentified as { name?: unknown } | undefined;
  if (event.study) {
    objects.push(
      el(
        'ParticipantObjectIdentification',
        {
          ParticipantObjectID: event.study.patientId,
          ParticipantObjectTypeCode: '1',
          ParticipantObjectTypeCodeRole: '1',
        },
        [
          el('ParticipantObjectIDTypeCode', {
            'csd-code': '2',
            codeSystemName: 'RFC-3881',
            originalText: 'Patient Number',
          }),
          el('ParticipantObjectName', {}, [text(event.study.patientName)]),
        ],
      ),
      el(
        'ParticipantObjectIdentification',
        {
          ParticipantObjectID: event.study.uid,
          ParticipantObjectTypeCode: '2',
          ParticipantObjectTypeCodeRole: '3',
        },
        [
          el('ParticipantObjectIDTypeCode', {
            'csd-code': '110180',
            codeSystemName: 'DCM',
            originalText: 'Study Instance UID',
          }),
          ...context,
          ...(deidentified ? [valuePair('DeidentificationProfile', str(deidentified.name) ?? '-')] : []),
          ...(event.study.accession ? [el('Accession', { Number: event.study.accession })] : []),
          ...(deidentified ? [el('Anonymized', {}, ['true'])] : []),
        ],
      ),
    );
    return objects;
  }
  const model = str(detail.model);
  if (codesFor(event.action, event.objectType).event.code === '110112') {
    const keys = detail.keys ?? detail.query ?? null;
    objects.push(
      el(
        'ParticipantObjectIdentification',
        {
          ParticipantObjectID: model ?? event.action,
          ParticipantObjectTypeCode: '2',
          ParticipantObjectTypeCodeRole: '24',
        },
        [
          el('ParticipantObjectIDTypeCode', {
            'csd-code': '110181',
            codeSystemName: 'DCM',
            originalText: 'SOP Class UID',
          }),
          el('ParticipantObjectQuery', {}, [Buffer.from(JSON.stringify(keys)).toString('base64')]),
          ...context,
        ],
      ),
    );
    return objects;
  }
  // Anything else (a session, a destination, a node, a rule, a setting): the object by its URN.
  objects.push(
    el(
      'ParticipantObjectIdentification',
      {
        ParticipantObjectID: `urn:imaging-inbox:${event.objectType}:${event.objectId ?? '-'}`,
        ParticipantObjectTypeCode: '2',
        ParticipantObjectTypeCodeRole: event.objectType === 'session' ? '11' : '13',
      },
      [
        el('ParticipantObjectIDTypeCode', {
          'csd-code': '12',
          codeSystemName: 'RFC-3881',
          originalText: 'URI',
        }),
        ...context,
      ],
    ),
  );
  return objects;
}

function failureText(event: QueuedEvent, detail: Record<string, unknown>): string {
  const reason = str(detail.reason) ?? str(detail.error);
  return reason ? `${event.action} failed: ${reason}` : `${event.action} failed`;
}

function parseDetail(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function str(value: unknown): string | undefined {
  if (typeof value === 'string' && value.trim()) return value.slice(0, 256);
  if (typeof value === 'number') return String(value);
  return undefined;
}

function firstOf(detail: Record<string, unknown>, keys: string[]): string | undefined {
  for (const key of keys) {
    const found = str(detail[key]);
    if (found) return found;
  }
  return undefined;
}

function valuePair(type: string, value: string): string {
  return el('ParticipantObjectDetail', { type, value: Buffer.from(value).toString('base64') });
}

function coded(name: string, code: DcmCode): string {
  return el(name, { 'csd-code': code.code, codeSystemName: 'DCM', originalText: code.meaning });
}

/** An element with escaped attributes and the given (already escaped) children. */
function el(name: string, attributes: Record<string, string | undefined>, children: string[] = []): string {
  const attrs = Object.entries(attributes)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([key, value]) => ` ${key}="${escape(value)}"`)
    .join('');
  return children.length ? `<${name}${attrs}>${children.join('')}</${name}>` : `<${name}${attrs}/>`;
}

function text(value: string): string {
  return escape(value);
}

/**
 * XML-escaped text, without the characters XML 1.0 cannot carry at all (C0 controls other than tab,
 * newline and return, lone surrogates): a patient name with a stray control byte still makes a
 * well-formed message.
 */
function escape(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}
