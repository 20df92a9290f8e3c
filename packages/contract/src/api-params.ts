import { z } from 'zod';
import { MAX_PAGE_ROWS } from './limits.js';

/**
 * api/v3 parameters as zod codecs. Every value arrives as a string (query string, form or JSON
 * body alike) and dotted keys such as `page.rows` are literal names. A request schema is a
 * `z.object` of these; the server turns its issues into MISSING_FIELDS / INVALID_FIELD answers.
 */

/** The message of an issue that means "this parameter is absent or blank" (MISSING_FIELDS). */
export const PARAM_MISSING = 'required';

/**
 * An issue may name the error sub-type it answers when that is not the parameter's own name
 * (flags answer `flag`, as they always have).
 */
export interface ParamIssueParams {
  subtype?: string;
}

type Ctx = z.core.$RefinementCtx<unknown>;

function refuse(ctx: Ctx, input: unknown, message: string, subtype?: string): typeof z.NEVER {
  ctx.issues.push({ code: 'custom', message, input, ...(subtype ? { params: { subtype } } : {}) });
  return z.NEVER;
}

/** A required parameter, trimmed; absent or blank is MISSING_FIELDS. */
export const requiredText = () => z.string({ error: PARAM_MISSING }).trim().min(1, PARAM_MISSING);

/** An optional parameter, trimmed; blank is treated as absent. */
export const optionalText = () =>
  z
    .string()
    .optional()
    .transform((raw) => raw?.trim() || undefined);

/** An optional parameter kept exactly as sent (a message, a password), absent stays absent. */
export const rawText = () => z.string().optional();

/** A whole number from `min` to `max`, `fallback` when absent or blank. */
export const intParam = (fallback: number, min: number, max: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return fallback;
      const value = Number(raw);
      if (!Number.isInteger(value) || value < min || value > max) {
        return refuse(ctx, raw, `must be an integer from ${min} to ${max}`);
      }
      return value;
    });

/** A required whole number from `min` to `max`: absent or blank is MISSING_FIELDS. */
export const requiredInt = (min: number, max: number) =>
  requiredText().transform((raw, ctx) => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      return refuse(ctx, raw, `must be an integer from ${min} to ${max}`);
    }
    return value;
  });

/** A JSON array of strings, or one plain comma-separated string, as the `in` filters accept both. */
export function parseStringList(raw: string): { ok: true; list: string[] } | { ok: false; why: string } {
  const text = raw.trim();
  if (!text.startsWith('['))
    return {
      ok: true,
      list: text
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, why: 'must be a JSON array' };
  }
  if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return { ok: false, why: 'must be a JSON array of strings' };
  }
  return { ok: true, list: parsed.map(String) };
}

/** An optional list parameter (see parseStringList); absent or blank stays undefined. */
export const listParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const result = parseStringList(raw);
      return result.ok ? result.list : refuse(ctx, raw, result.why);
    });

/** `1`/`true` or `0`/`false`; absent or blank stays undefined. */
export function parseFlag(raw: string | undefined): 0 | 1 | undefined | 'invalid' {
  if (raw === undefined || raw === '') return undefined;
  if (raw === '1' || raw === 'true') return 1;
  if (raw === '0' || raw === 'false') return 0;
  return 'invalid';
}

/** An optional 0/1 flag; a wrong value answers INVALID_FIELD `flag`. */
export const flagParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      const value = parseFlag(raw);
      return value === 'invalid' ? refuse(ctx, raw, 'must be 0 or 1', 'flag') : value;
    });

/** One of a fixed set of values; absent or blank stays undefined. */
export const choiceParam = <const T extends readonly [string, ...string[]]>(choices: T, why: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): T[number] | undefined => {
      const text = raw?.trim();
      if (!text) return undefined;
      return (choices as readonly string[]).includes(text) ? text : refuse(ctx, raw, why);
    });

/** In a request schema's transform: these parameters are all absent (MISSING_FIELDS naming them). */
export function reportMissing(ctx: Ctx, ...names: string[]): typeof z.NEVER {
  for (const name of names)
    ctx.issues.push({ code: 'custom', message: PARAM_MISSING, path: [name], input: undefined });
  return z.NEVER;
}

/** In a request schema's transform: this parameter's value is refused (INVALID_FIELD). */
export function reportInvalid(ctx: Ctx, name: string, why: string): typeof z.NEVER {
  ctx.issues.push({ code: 'custom', message: why, path: [name], input: undefined });
  return z.NEVER;
}

/** A request with no parameters besides the session. */
export const noParams = z.object({});

/**
 * `page.number` and `page.rows` of a list. Ambra's clients page every list this way and check
 * that the answer's `page.rows` is the size they asked for, so a list answers the size asked
 * (`defaultRows` when none is).
 */
export const pageParams = (defaultRows: number, maxRows: number = MAX_PAGE_ROWS) => ({
  'page.number': intParam(1, 1, 1_000_000),
  'page.rows': intParam(defaultRows, 1, maxRows),
});

/** The `page` object of a list answer, as Ambra answers it. */
export interface AnswerPage {
  number: number;
  rows: number;
  more: 0 | 1;
}

/** A list call with no parameters besides its page (read whole unless a page size is asked). */
export const pageRequest = z.object(pageParams(MAX_PAGE_ROWS));

/** The rows of a list that is read whole (short lists), as one answer page. */
export function pageOf<T>(
  items: readonly T[],
  number: number,
  rows: number,
): { items: T[]; page: AnswerPage } {
  const start = (number - 1) * rows;
  return {
    items: items.slice(start, start + rows),
    page: { number, rows, more: items.length > start + rows ? (1 as const) : (0 as const) },
  };
}

/**
 * Ambra names the object a tag or custom field belongs to by its class (`Study`, `User_account`,
 * `Namespace`…); the class name is matched case-insensitively and answered in lower case.
 */
export const objectClass = (raw: string): string => raw.trim().toLowerCase();
