/**
 * HL7 v2 messages as the MLLP listener receives them: segments split on carriage returns, fields
 * and components on the separators MSH declares, escape sequences undone. Only reading what orders
 * and results need; nothing here knows about orders.
 */

export class Hl7ParseError extends Error {}

export interface Hl7Message {
  /** Segments in order, each a list of fields; field 0 is the segment's name. */
  segments: string[][];
  separators: { field: string; component: string; repetition: string; escape: string; subcomponent: string };
}

/** Parses a message (segments separated by CR; LF and CRLF tolerated); throws Hl7ParseError. */
export function parseHl7(text: string): Hl7Message {
  const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
  const msh = lines[0];
  if (!msh?.startsWith('MSH') || msh.length < 8)
    throw new Hl7ParseError('the message does not start with MSH');
  const field = msh[3]!;
  const encoding = msh.slice(4, msh.indexOf(field, 4));
  if (encoding.length < 4)
    throw new Hl7ParseError('MSH-2 must name the component, repetition, escape and subcomponent separators');
  const separators = {
    field,
    component: encoding[0]!,
    repetition: encoding[1]!,
    escape: encoding[2]!,
    subcomponent: encoding[3]!,
  };
  const segments = lines.map((line) => {
    const fields = line.split(field);
    // MSH-1 is the field separator itself, so MSH's fields are numbered one further than split gives.
    return fields[0] === 'MSH' ? ['MSH', field, ...fields.slice(1)] : fields;
  });
  return { segments, separators };
}

/** The first segment of this name, or undefined. */
export function segment(message: Hl7Message, name: string): string[] | undefined {
  return message.segments.find((s) => s[0] === name);
}

/** Every segment of this name, in order. */
export function segmentsOf(message: Hl7Message, name: string): string[][] {
  return message.segments.filter((s) => s[0] === name);
}

/**
 * A field's component (1-based, as HL7 numbers them) of its first repetition, unescaped; '' when
 * absent. Component 0 is the whole first repetition, unescaped.
 */
export function value(
  message: Hl7Message,
  seg: string[] | undefined,
  fieldNo: number,
  component = 1,
): string {
  const raw = seg?.[fieldNo];
  if (!raw) return '';
  if (seg[0] === 'MSH' && fieldNo <= 2) return raw;
  const first = raw.split(message.separators.repetition)[0] ?? '';
  if (component === 0) return unescape(message, first);
  const comp = first.split(message.separators.component)[component - 1] ?? '';
  return unescape(message, comp.split(message.separators.subcomponent)[0] ?? '').trim();
}

/** Undoes HL7 escapes: \F\ \S\ \T\ \R\ \E\ and \.br\ (a line break in formatted text). */
export function unescape(message: Hl7Message, text: string): string {
  const e = message.separators.escape;
  if (!text.includes(e)) return text;
  const map: Record<string, string> = {
    F: message.separators.field,
    S: message.separators.component,
    T: message.separators.subcomponent,
    R: message.separators.repetition,
    E: e,
    '.br': '\n',
  };
  const pattern = new RegExp(`${escapeRegExp(e)}(F|S|T|R|E|\\.br)${escapeRegExp(e)}`, 'g');
  return text.replace(pattern, (_m, code: string) => map[code] ?? '');
}

/** Escapes text for a field of our own messages (the ACK's text). */
export function escapeHl7(text: string): string {
  return text
    .replaceAll('\\', '\\E\\')
    .replaceAll('|', '\\F\\')
    .replaceAll('^', '\\S\\')
    .replaceAll('&', '\\T\\')
    .replaceAll('~', '\\R\\')
    .replace(/[\r\n]+/g, ' ');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** An HL7 timestamp (YYYY[MM[DD[HH[MM[SS]]]]], optional zone) as epoch ms (UTC when no zone), or null. */
export function hl7Time(ts: string): number | null {
  const m = /^(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:\.\d+)?([+-]\d{4})?$/.exec(ts.trim());
  if (!m) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', zone] = m;
  let ms = Date.UTC(+y!, +mo - 1, +d, +h, +mi, +s);
  if (Number.isNaN(ms)) return null;
  if (zone) ms -= (zone[0] === '-' ? -1 : 1) * (+zone.slice(1, 3) * 60 + +zone.slice(3, 5)) * 60_000;
  return ms;
}

/** The acknowledgement codes: accepted, error (the reason in MSA-3), rejected (could not be read). */
export type AckCode = 'AA' | 'AE' | 'AR';

/**
 * The ACK of a message: MSH answering its sender (applications and facilities swapped, its version
 * and processing id) and MSA with the code, its control id and, for an error, the reason.
 */
export function buildAck(message: Hl7Message | null, code: AckCode, text: string, now: Date): string {
  const msh = message ? segment(message, 'MSH') : undefined;
  const field = (n: number) => msh?.[n] ?? '';
  const stamp = now.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const trigger = message ? value(message, msh, 9, 2) : '';
  const controlId = field(10);
  const lines = [
    [
      'MSH',
      '^~\\&',
      'IMAGING_INBOX',
      field(6) || 'IMAGING_INBOX',
      field(3),
      field(4),
      stamp,
      '',
      `ACK${trigger ? `^${trigger}` : ''}`,
      `ACK${controlId || stamp}`,
      field(11) || 'P',
      field(12) || '2.5',
    ].join('|'),
    ['MSA', code, controlId, escapeHl7(text)].join('|'),
  ];
  return lines.join('\r') + '\r';
}
