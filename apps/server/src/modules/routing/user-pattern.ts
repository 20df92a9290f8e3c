import { RE2JS } from 're2js';

/**
 * Every regular expression a user writes (a routing rule's regex condition) is matched here, with
 * RE2's algorithm (re2js, its JavaScript port; decision 0053): its time grows linearly with the
 * text, whatever the pattern, so no pattern
 * can stall the process the way a backtracking engine's `a*a*a*a*b` does. RE2 has no
 * backreferences or lookarounds; a pattern it cannot compile is a UserPatternError, never a
 * fallback to the JavaScript engine. Matching is case-insensitive, on Unicode characters.
 */

/** A pattern RE2 refuses (invalid, a backtracking-only feature, or a program too large). */
export class UserPatternError extends Error {}

/** Compiled patterns kept, by source: a rule's patterns are compiled once, not per study. */
const CACHE_MAX = 500;
const compiled = new Map<string, RE2JS>();

function compile(pattern: string): RE2JS {
  const known = compiled.get(pattern);
  if (known) {
    // Most recently used last, so the oldest is the one dropped.
    compiled.delete(pattern);
    compiled.set(pattern, known);
    return known;
  }
  let regex: RE2JS;
  try {
    // Case-insensitive; re2js reads the text as Unicode code points, as the `u` flag would.
    regex = RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    throw new UserPatternError(
      `is not a pattern the safe regex engine (RE2) accepts: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  compiled.set(pattern, regex);
  if (compiled.size > CACHE_MAX) compiled.delete(compiled.keys().next().value!);
  return regex;
}

/** Why RE2 refuses a pattern, or null when it compiles. */
export function userPatternProblem(pattern: string): string | null {
  try {
    compile(pattern);
    return null;
  } catch (error) {
    if (error instanceof UserPatternError) return error.message;
    throw error;
  }
}

/** Does the pattern match somewhere in the first `maxInput` characters of the value? UserPatternError if RE2 refuses it. */
export function userPatternTest(pattern: string, value: string, maxInput: number): boolean {
  return compile(pattern).matcher(value.slice(0, maxInput)).find();
}

/**
 * The value with every match of the pattern in its first `maxInput` characters replaced (`$1`
 * names a group), the rest of the value dropped: a de-identification rule's rewrite. UserPatternError
 * if RE2 refuses the pattern.
 */
export function userPatternReplace(
  pattern: string,
  value: string,
  replacement: string,
  maxInput: number,
): string {
  return compile(pattern).matcher(value.slice(0, maxInput)).replaceAll(replacement);
}
