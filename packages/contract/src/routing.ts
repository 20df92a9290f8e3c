import { z } from 'zod';

/**
 * Routing rules of an account (SPEC.md "Routing rule"): when a study arrives (upload, a DICOM
 * sender's harvest, a share, or by hand), the account's rules are read in sequence; each enabled rule
 * whose target, trigger and conditions match runs its actions, each once per (rule, study).
 */

/** What starts a rule: an upload, a sender's study once quiet, a share into the group, or study/manual/route. */
export const ROUTE_EVENTS = ['upload', 'harvest', 'share', 'manual'] as const;
export type RouteEvent = (typeof ROUTE_EVENTS)[number];

/** Study fields a condition may test; a custom field is named `custom:<field name>`. */
export const ROUTE_CONDITION_FIELDS = [
  'modality',
  'source_ae',
  'called_ae',
  'referring_physician',
  'study_description',
  'patient_name',
] as const;
export type RouteConditionField = (typeof ROUTE_CONDITION_FIELDS)[number] | `custom:${string}`;

export const ROUTE_OPERATORS = ['equals', 'contains', 'regex'] as const;
export type RouteOperator = (typeof ROUTE_OPERATORS)[number];

export const ROUTE_ACTION_TYPES = ['share_group', 'push', 'webhook', 'share_code', 'connection'] as const;
export type RouteActionType = (typeof ROUTE_ACTION_TYPES)[number];

export const ROUTE_NAME_MAX_LENGTH = 100;
export const ROUTE_VALUE_MAX_LENGTH = 200;
export const ROUTE_MAX_CONDITIONS = 20;
export const ROUTE_MAX_ACTIONS = 10;
/**
 * How much of a DICOM value a regex condition reads: values come from whoever sends the study, so a
 * pattern runs over a bounded input only (together with the pattern check below).
 */
export const ROUTE_REGEX_INPUT_MAX = 1024;

export interface RouteCondition {
  field: RouteConditionField;
  op: RouteOperator;
  value: string;
}

export type RouteAction =
  /** `anonymization_id`: share de-identified by this profile of the account (decision 0071). */
  | { type: 'share_group'; group_id: string; anonymization_id?: string | undefined }
  | { type: 'push'; destination_id: string }
  | { type: 'webhook'; webhook_id: string }
  | { type: 'share_code'; share_code: string }
  | { type: 'connection'; connection_id: string };

/** Whose studies a rule looks at: a group's, or those a registered DICOM sender delivered; null: every study of the account. */
export interface RouteFor {
  type: 'group' | 'sender';
  id: string;
}

export interface RoutingRule {
  uuid: string;
  account_id: string;
  sequence: number;
  name: string;
  for: RouteFor | null;
  when: RouteEvent[];
  /** all: every condition must hold; any: one is enough (no conditions: always). */
  match: 'all' | 'any';
  conditions: RouteCondition[];
  actions: RouteAction[];
  disabled: 0 | 1;
  created: number;
  updated: number;
}

/**
 * How much repetition a regex condition may hold: every atom counts 1 (a class that is negated or
 * holds a Unicode property, such as `[^x]` or `\p{L}`, counts 10, as it compiles to many UTF-8
 * ranges), a counted repetition multiplies what it repeats by its upper bound (`{2,4}` by 4,
 * `{3,}` by 4), nested counts multiply and `*`, `+`, `?` add nothing. The server matches with a
 * linear-time engine (RE2, decision 0053), whose time still grows with the compiled pattern's
 * size: this keeps each test to a few milliseconds on a ROUTE_REGEX_INPUT_MAX value.
 */
export const ROUTE_REGEX_MAX_COST = 100;

/**
 * Why a regex may not be used as a condition, or null when it may. It must be a valid pattern in
 * the syntax both JavaScript and RE2 read: no backreferences or lookarounds (RE2 has neither, as
 * they need backtracking), and its repetition within ROUTE_REGEX_MAX_COST. The server also
 * compiles it with RE2 when saved and refuses what RE2 refuses (routing-rule.service.ts).
 */
export function routeRegexProblem(pattern: string): string | null {
  if (!pattern) return 'is empty';
  if (pattern.length > ROUTE_VALUE_MAX_LENGTH) return `at most ${ROUTE_VALUE_MAX_LENGTH} characters`;
  try {
    // Compiling only (never matching) a bounded pattern: a syntax check that cannot stall.
    new RegExp(pattern, 'iu');
  } catch (error) {
    return `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
  if (/\\[1-9k]/.test(pattern)) return 'may not use backreferences';
  if (/\(\?<?[=!]/.test(pattern)) return 'may not use lookarounds';
  if (routeRegexCost(pattern) > ROUTE_REGEX_MAX_COST)
    return `repeats too much (counted repetitions such as {n,m} multiply; at most ${ROUTE_REGEX_MAX_COST} characters in all)`;
  return null;
}

/** The repetition cost of a valid pattern (see ROUTE_REGEX_MAX_COST). */
export function routeRegexCost(pattern: string): number {
  // One total per open group; an atom's cost is kept until a quantifier may multiply it.
  const totals: number[] = [0];
  let last = 0;
  const atom = (cost: number) => {
    totals[totals.length - 1]! += cost;
    last = cost;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if ((next === 'p' || next === 'P' || next === 'u') && pattern[i + 2] === '{') {
        i = Math.max(i + 1, pattern.indexOf('}', i));
        atom(next === 'u' ? 1 : HEAVY);
      } else {
        i++;
        atom('DWS'.includes(next) ? HEAVY : 1);
      }
    } else if (c === '[') {
      // A character class is one atom: read to its end (a `]` first in it is literal).
      const start = i;
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      const body = pattern.slice(start, i);
      atom(body.startsWith('[^') || /\\[pPDWS]/.test(body) ? HEAVY : 1);
    } else if (c === '(') {
      totals.push(0);
      if (pattern[i + 1] === '?') {
        // `(?:`, `(?<name>`: group syntax, not atoms
        const close = pattern[i + 2] === '<' ? pattern.indexOf('>', i) : i + 2;
        i = Math.max(i + 1, close);
      }
      last = 0;
    } else if (c === ')') {
      const group = totals.pop() ?? 0;
      if (!totals.length) totals.push(0);
      atom(group);
    } else if (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i))) {
      const [, low, comma, high] = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i))!;
      const times = comma === undefined ? Number(low) : high ? Number(high) : Number(low) + 1;
      totals[totals.length - 1]! += last * (Math.max(times, 1) - 1);
      last *= Math.max(times, 1);
      i = pattern.indexOf('}', i);
    } else if (c !== '|' && c !== '*' && c !== '+' && c !== '?' && c !== '^' && c !== '$') {
      atom(1);
    }
  }
  return totals.reduce((sum, t) => sum + t, 0);
}

/** What an atom compiled to many UTF-8 ranges counts (see ROUTE_REGEX_MAX_COST). */
const HEAVY = 10;

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, `at most ${max} characters`);

/** A condition's shape without the regex check: how a stored rule is read back (storedRouteConditionsSchema). */
const routeConditionShape = z
  .object({
    field: z.union([
      z.enum(ROUTE_CONDITION_FIELDS),
      z.templateLiteral(['custom:', z.string().min(1).max(ROUTE_NAME_MAX_LENGTH)]),
    ]),
    op: z.enum(ROUTE_OPERATORS),
    value: z.string().max(ROUTE_VALUE_MAX_LENGTH, `at most ${ROUTE_VALUE_MAX_LENGTH} characters`),
  })
  .strict();

export const routeConditionSchema = routeConditionShape.superRefine((c, ctx) => {
  if (c.op !== 'regex') return;
  const problem = routeRegexProblem(c.value);
  if (problem) ctx.addIssue({ code: 'custom', message: `regex ${problem}`, path: ['value'] });
});

export const routeActionSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('share_group'), group_id: text(64), anonymization_id: text(64).optional() })
    .strict(),
  z.object({ type: z.literal('push'), destination_id: text(64) }).strict(),
  z.object({ type: z.literal('webhook'), webhook_id: text(64) }).strict(),
  z.object({ type: z.literal('share_code'), share_code: text(64) }).strict(),
  z.object({ type: z.literal('connection'), connection_id: text(64) }).strict(),
]);

export const routeConditionsSchema = z.array(routeConditionSchema).max(ROUTE_MAX_CONDITIONS);
/**
 * The conditions of a rule already saved, read without today's regex check: a pattern saved under
 * older rules still lists and edits, and the engine marks the rule failed instead (decision 0053).
 */
export const storedRouteConditionsSchema = z.array(routeConditionShape);
export const routeActionsSchema = z
  .array(routeActionSchema)
  .min(1, 'at least one action')
  .max(ROUTE_MAX_ACTIONS);
export const routeEventsSchema = z.array(z.enum(ROUTE_EVENTS)).min(1, 'at least one event');

/** The first problem of a parsed JSON value against a schema, as one readable line. */
export function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  return `${where}${issue.message}`;
}
