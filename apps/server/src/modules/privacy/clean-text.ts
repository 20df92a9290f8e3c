/**
 * The "C" (clean) action of PS3.15 Annex E on free text (Clean Descriptors, Clean Structured
 * Content, and Retain Patient Characteristics' cleaned attributes): the text is kept, with every
 * identifying value taken from the same file (names and their parts, IDs, dates, institutions…)
 * cut out wherever it occurs, whatever the case.
 *
 * Bounded: at most MAX_IDENTIFIERS values are looked for, and a text longer than MAX_CLEAN_CHARS is
 * not cleaned but removed, so no file makes this slow.
 */

export const MAX_CLEAN_CHARS = 16 * 1024;
const MAX_IDENTIFIERS = 1000;
/** Shorter values (a sex code, an initial) would cut ordinary words to pieces. */
const MIN_IDENTIFIER_CHARS = 3;
const REDACTED = '*';

export class IdentifierSet {
  private readonly values = new Set<string>();

  /** Records a value to cut from cleaned text; PN values add each name part as well. */
  add(value: string, vr: string): void {
    const parts = vr === 'PN' ? [value, ...value.split(/[\^=]/)] : [value];
    for (const part of parts) {
      const trimmed = part.trim().toLowerCase();
      if (trimmed.length < MIN_IDENTIFIER_CHARS || this.values.size >= MAX_IDENTIFIERS) continue;
      this.values.add(trimmed);
    }
  }

  /** The text with every recorded value cut out; null when the text is too long to clean (remove it). */
  clean(text: string): string | null {
    if (text.length > MAX_CLEAN_CHARS) return null;
    // Longest first, so a full name is cut before one of its parts leaves the rest behind.
    const values = [...this.values].sort((a, b) => b.length - a.length);
    let result = text;
    for (const value of values) {
      let lower = result.toLowerCase();
      // toLowerCase may change lengths outside ASCII; then positions would not line up.
      if (lower.length !== result.length) return null;
      let at = lower.indexOf(value);
      while (at !== -1) {
        result = result.slice(0, at) + REDACTED + result.slice(at + value.length);
        lower = lower.slice(0, at) + REDACTED + lower.slice(at + value.length);
        at = lower.indexOf(value, at + REDACTED.length);
      }
    }
    return result;
  }
}
