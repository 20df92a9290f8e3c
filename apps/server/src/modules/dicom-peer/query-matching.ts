/**
 * C-FIND attribute matching (PS3.4 C.2.2.2) on the values the index holds: universal (empty), single
 * value, wildcard (`*`, `?`), UID list and list (`\`), and range (`a-b`, `a-`, `-b`) for dates and
 * times. Person names match case-blind (as Orthanc does by default: workstations type names in any
 * case); every other value exactly. Pure functions, bounded by the key's length.
 */

/** The kind of matching a key gets, from its VR. */
export type MatchKind = 'uid' | 'date' | 'time' | 'name' | 'text';

/** Longest matching value looked at: a query key is short, a longer one is cut. */
const MAX_KEY_LENGTH = 1024;

/** A test of one stored value; undefined for a universal match (no constraint). */
export type Matcher = (stored: string) => boolean;

export function matcherFor(kind: MatchKind, raw: string): Matcher | undefined {
  const value = raw.slice(0, MAX_KEY_LENGTH).trim();
  if (value === '' || value === '*') return undefined;
  const alternatives = value.split('\\').map((v) => v.trim());
  const tests = alternatives.map((alternative) => single(kind, alternative));
  return (stored) => tests.some((test) => test(stored));
}

function single(kind: MatchKind, value: string): Matcher {
  if (kind === 'uid') return (stored) => stored === value;
  if (kind === 'date' || kind === 'time') {
    const normalize = kind === 'date' ? normalizeDate : normalizeTime;
    const dash = value.indexOf('-');
    if (dash >= 0) {
      const low = normalize(value.slice(0, dash));
      const high = normalize(value.slice(dash + 1));
      return (stored) => {
        const s = normalize(stored);
        if (!s) return false;
        return (!low || s >= low) && (!high || s <= padHigh(high, kind));
      };
    }
    const exact = normalize(value);
    return (stored) =>
      normalize(stored) === exact || (kind === 'time' && normalize(stored).startsWith(exact));
  }
  const fold = kind === 'name' ? (s: string) => s.toUpperCase() : (s: string) => s;
  const wanted = fold(value);
  if (!/[*?]/.test(wanted)) return (stored) => fold(stored.trim()) === wanted;
  return (stored) => wildcardMatch(wanted, fold(stored.trim()));
}

/**
 * Whether `text` matches `pattern`, where `*` is any run and `?` one character, everything else
 * literal. Greedy with one remembered star, so a node's key (up to MAX_KEY_LENGTH, any number of
 * stars) costs at most pattern × text steps per stored value: a regular expression built from the
 * key would backtrack exponentially on `*a*a*a…b` and hold the process.
 */
export function wildcardMatch(pattern: string, text: string): boolean {
  let p = 0;
  let t = 0;
  let star = -1;
  let resume = 0;
  while (t < text.length) {
    if (p < pattern.length && (pattern[p] === '?' || (pattern[p] !== '*' && pattern[p] === text[t]))) {
      p++;
      t++;
    } else if (p < pattern.length && pattern[p] === '*') {
      star = p++;
      resume = t;
    } else if (star >= 0) {
      p = star + 1;
      t = ++resume;
    } else return false;
  }
  while (pattern[p] === '*') p++;
  return p === pattern.length;
}

/** YYYYMMDD (also YYYY.MM.DD, the old form) or '' when not a date. */
function normalizeDate(value: string): string {
  const digits = value.trim().replace(/\./g, '');
  return /^\d{8}$/.test(digits) ? digits : '';
}

/** HHMMSS.ffffff without colons, or '' when not a time. */
function normalizeTime(value: string): string {
  const t = value.trim().replace(/:/g, '');
  return /^\d{2,6}(\.\d{1,6})?$/.test(t) ? t : '';
}

/** A time range's upper end covers the whole of its last unit (`-10` is up to 10:59:59.999999). */
function padHigh(high: string, kind: MatchKind): string {
  return kind === 'time' ? `${high}${'9'.repeat(Math.max(0, 13 - high.length))}` : high;
}

/** The exact value a key asks for when it is one plain value (no wildcard, list or range): SQL may filter by it. */
export function exactValue(kind: MatchKind, raw: string): string | undefined {
  const value = raw.trim();
  if (value === '' || /[*?\\]/.test(value) || ((kind === 'date' || kind === 'time') && value.includes('-')))
    return undefined;
  if (kind === 'name') return undefined; // names match case-blind
  return value;
}

/** A UID list key's UIDs (SQL filters by them), or undefined for a universal key. */
export function uidList(raw: string): string[] | undefined {
  const value = raw.slice(0, 64 * 1024).trim();
  if (value === '' || value === '*') return undefined;
  return value
    .split('\\')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** A date key's range for SQL (inclusive bounds, either may be absent), or undefined when not one. */
export function dateRange(raw: string): { low?: string; high?: string } | undefined {
  const value = raw.trim();
  if (value === '' || value.includes('\\')) return undefined;
  const dash = value.indexOf('-');
  if (dash < 0) {
    const d = normalizeDate(value);
    return d ? { low: d, high: d } : undefined;
  }
  const low = normalizeDate(value.slice(0, dash));
  const high = normalizeDate(value.slice(dash + 1));
  return { ...(low ? { low } : {}), ...(high ? { high } : {}) };
}
