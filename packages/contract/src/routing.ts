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
  | { type: 'share_group'; group_id: string }
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
 * Why a regex may not be used as a condition, or null when it may. Besides being valid, a pattern
 * must not be able to backtrack catastrophically: no backreferences or lookarounds, and no
 * quantified group that itself holds a quantifier or an alternation (`(a+)+`, `(a|a)*`).
 */
export function routeRegexProblem(pattern: string): string | null {
  if (!pattern) return 'is empty';
  if (pattern.length > ROUTE_VALUE_MAX_LENGTH) return `at most ${ROUTE_VALUE_MAX_LENGTH} characters`;
  try {
    new RegExp(pattern, 'iu');
  } catch (error) {
    return `is not a valid regular expression (${error instanceof Error ? error.message : String(error)})`;
  }
  if (/\\[1-9k]/.test(pattern)) return 'may not use backreferences';
  if (/\(\?<?[=!]/.test(pattern)) return 'may not use lookarounds';
  // Each open group remembers whether it holds a quantifier or an alternation ("risky").
  const open: boolean[] = [];
  const markRisky = () => {
    if (open.length) open[open.length - 1] = true;
  };
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      i++;
    } else if (c === '[') {
      // A character class is one atom: skip to its end (a `]` first in it is literal).
      i++;
      if (pattern[i] === '^') i++;
      if (pattern[i] === ']') i++;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
    } else if (c === '(') {
      open.push(false);
      if (pattern[i + 1] === '?') i++; // `(?:` and `(?<name>` are group syntax, not a quantifier
    } else if (c === '|') {
      markRisky();
    } else if (c === ')') {
      const risky = open.pop() ?? false;
      const repeats = repeatsMany(pattern.slice(i + 1));
      if (risky && repeats) return 'may not repeat a group that holds a quantifier or an alternation';
      if (risky || repeats) markRisky();
    } else if (
      c === '*' ||
      c === '+' ||
      c === '?' ||
      (c === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i)))
    ) {
      markRisky();
    }
  }
  return null;
}

/** Does the text after an atom repeat it more than once (`*`, `+`, `{2}`, `{1,}`, `{0,5}`…)? */
function repeatsMany(after: string): boolean {
  if (after.startsWith('*') || after.startsWith('+')) return true;
  const range = /^\{(\d+)(,(\d*))?\}/.exec(after);
  if (!range) return false;
  if (range[2] === undefined) return Number(range[1]) > 1;
  return range[3] === '' || Number(range[3]) > 1;
}

const text = (max: number) => z.string().trim().min(1, 'is required').max(max, `at most ${max} characters`);

export const routeConditionSchema = z
  .object({
    field: z.union([
      z.enum(ROUTE_CONDITION_FIELDS),
      z.templateLiteral(['custom:', z.string().min(1).max(ROUTE_NAME_MAX_LENGTH)]),
    ]),
    op: z.enum(ROUTE_OPERATORS),
    value: z.string().max(ROUTE_VALUE_MAX_LENGTH, `at most ${ROUTE_VALUE_MAX_LENGTH} characters`),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.op !== 'regex') return;
    const problem = routeRegexProblem(c.value);
    if (problem) ctx.addIssue({ code: 'custom', message: `regex ${problem}`, path: ['value'] });
  });

export const routeActionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('share_group'), group_id: text(64) }).strict(),
  z.object({ type: z.literal('push'), destination_id: text(64) }).strict(),
  z.object({ type: z.literal('webhook'), webhook_id: text(64) }).strict(),
  z.object({ type: z.literal('share_code'), share_code: text(64) }).strict(),
  z.object({ type: z.literal('connection'), connection_id: text(64) }).strict(),
]);

export const routeConditionsSchema = z.array(routeConditionSchema).max(ROUTE_MAX_CONDITIONS);
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
