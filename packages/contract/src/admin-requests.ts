import { z } from 'zod';
import {
  flagParam,
  listParam,
  pageParams,
  rawText,
  reportInvalid,
  requiredText,
  optionalText,
} from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';
import {
  firstIssue,
  routeActionsSchema,
  routeConditionsSchema,
  ROUTE_EVENTS,
  ROUTE_NAME_MAX_LENGTH,
} from './routing.js';
import type { RouteEvent } from './routing.js';
import { WEBHOOK_EVENTS, WEBHOOK_METHODS } from './webhooks.js';

/** Request schemas of routing rules, webhooks and the account audit log (api-params.ts explains the codecs). */

/** A parameter holding JSON checked by `schema`; absent or blank stays undefined. */
function jsonParam<S extends z.ZodType>(schema: S) {
  return z
    .string()
    .optional()
    .transform((raw, ctx): z.output<S> | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        ctx.issues.push({ code: 'custom', message: 'must be JSON', input: raw });
        return z.NEVER;
      }
      const parsed = schema.safeParse(value);
      if (parsed.success) return parsed.data;
      ctx.issues.push({ code: 'custom', message: firstIssue(parsed.error), input: raw });
      return z.NEVER;
    });
}

/** A list of fixed values (JSON array or comma-separated). */
function choiceList<const T extends readonly [string, ...string[]]>(choices: T) {
  return listParam().transform((list, ctx): T[number][] | undefined => {
    if (list === undefined) return undefined;
    const unknown = list.filter((v) => !(choices as readonly string[]).includes(v));
    if (unknown.length) {
      ctx.issues.push({ code: 'custom', message: `unknown: ${unknown.join(', ')}`, input: list });
      return z.NEVER;
    }
    return [...new Set(list)] as T[number][];
  });
}

const routeFields = {
  name: rawText(),
  sequence: rawText().transform((raw, ctx) => {
    if (raw === undefined || raw.trim() === '') return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0 || value > 1_000_000) {
      ctx.issues.push({ code: 'custom', message: 'must be an integer from 0 to 1000000', input: raw });
      return z.NEVER;
    }
    return value;
  }),
  /** group or sender; empty: every study of the account. */
  for_type: rawText(),
  for_id: rawText(),
  when: choiceList(ROUTE_EVENTS),
  match: rawText(),
  conditions: jsonParam(routeConditionsSchema),
  actions: jsonParam(routeActionsSchema),
  disabled: flagParam(),
};

export const routeListRequest = z.object({ account_id: requiredText(), ...pageParams(MAX_PAGE_ROWS) });
/** Ambra's one-flag-per-event form of `when`: each 0/1 flag names the event it turns off or on. */
export const ROUTE_EVENT_FLAGS = {
  on_harvest: 'harvest',
  on_upload: 'upload',
  on_share: 'share',
  on_manual_route: 'manual',
} as const satisfies Record<string, RouteEvent>;
type RouteEventFlag = keyof typeof ROUTE_EVENT_FLAGS;

/** The event flags given (0: off, 1: on); undefined when none is. */
export type RouteEventFlags = Partial<Record<RouteEvent, 0 | 1>>;

const routeEventFlagParams = {
  on_harvest: flagParam(),
  on_upload: flagParam(),
  on_share: flagParam(),
  on_manual_route: flagParam(),
};

/**
 * Takes the on_* flags off a route request and answers them as `when_flags`. `when` and the flags
 * together are refused (INVALID_FIELD `when`) rather than one silently winning: a client sending
 * both meant one of them, and the rule would run on events it did not ask for.
 */
function withEventFlags<
  T extends Record<RouteEventFlag, 0 | 1 | undefined> & { when?: RouteEvent[] | undefined },
>(p: T, ctx: z.core.$RefinementCtx<unknown>) {
  const { on_harvest, on_upload, on_share, on_manual_route, ...rest } = p;
  const given: Record<RouteEventFlag, 0 | 1 | undefined> = {
    on_harvest,
    on_upload,
    on_share,
    on_manual_route,
  };
  let flags: RouteEventFlags | undefined;
  for (const [name, value] of Object.entries(given) as [RouteEventFlag, 0 | 1 | undefined][]) {
    if (value !== undefined) flags = { ...flags, [ROUTE_EVENT_FLAGS[name]]: value };
  }
  if (flags && rest.when !== undefined) {
    return reportInvalid(
      ctx,
      'when',
      `give when or the ${Object.keys(ROUTE_EVENT_FLAGS).join('/')} flags, not both`,
    );
  }
  return { ...rest, when_flags: flags };
}

export const routeAddRequest = z
  .object({ account_id: requiredText(), ...routeFields, ...routeEventFlagParams })
  .transform(withEventFlags);
export const routeSetRequest = z
  .object({ uuid: requiredText(), ...routeFields, ...routeEventFlagParams })
  .transform(withEventFlags);
export const studyManualRouteRequest = z.object({ route_id: requiredText(), uuid: requiredText() });
export { ROUTE_NAME_MAX_LENGTH };

const webhookFields = {
  name: rawText(),
  url: rawText(),
  method: rawText(),
  event: choiceList(WEBHOOK_EVENTS),
  disabled: flagParam(),
};

export const webhookListRequest = z.object({ account_id: requiredText(), ...pageParams(MAX_PAGE_ROWS) });
export const webhookAddRequest = z.object({ account_id: requiredText(), ...webhookFields });
export const webhookSetRequest = z.object({ uuid: requiredText(), ...webhookFields });
export const webhookDeliveryListRequest = z.object({ uuid: requiredText(), ...pageParams(25, 500) });
export const WEBHOOK_METHOD_CHOICES = WEBHOOK_METHODS;

/** audit/log: the account's events, newest first, filtered; `format=csv` answers a CSV file. */
export const auditLogRequest = z.object({
  account_id: requiredText(),
  // Its filters (`filter.user_id`, `filter.action.in`, `filter.at.ge`…) are read by the grammar
  // every list shares: LIST_FILTERS['audit/log'] in list-filters.ts.
  format: optionalText().transform((raw, ctx) => {
    if (raw === undefined || raw === 'json') return 'json' as const;
    if (raw === 'csv') return 'csv' as const;
    ctx.issues.push({ code: 'custom', message: 'must be json or csv', input: raw });
    return z.NEVER;
  }),
  ...pageParams(50, 1000),
});
