import { z } from 'zod';
import {
  flagParam,
  optionalText,
  pageParams,
  rawText,
  reportInvalid,
  requiredInt,
  requiredText,
} from './api-params.js';
import { MAX_INT, MAX_PAGE_ROWS } from './limits.js';
import { DEFAULT_LINK_SORT, LINK_ACTIONS, LINK_SORT_OPTIONS } from './links.js';
import type { LinkAction, LinkSort } from './links.js';
import { PHONE_PATTERN } from './profile.js';
import { emailSchema } from './validation.js';

/** Request schemas of request-study links and e-mailed sends (api-params.ts explains the codecs). */

/** link/add: mails a link that lets an outside party upload into a group. */
export const linkAddRequest = z
  .object({
    namespace_id: requiredText(),
    action: requiredText(),
    email: requiredText(),
    max_hits: requiredInt(1, MAX_INT),
    minutes_alive: requiredInt(1, MAX_INT),
    password: rawText(),
    message: optionalText(),
    notify: flagParam(),
    /** Whom the request is for (Ambra's `mobile_phone`), in international form; kept and shown. */
    mobile_phone: optionalText(),
    /** The share message of what the link uploads. */
    share_description: optionalText(),
    /** A de-identification profile of the group's account applied to every upload (decision 0071). */
    anonymization_id: optionalText(),
  })
  .transform((p, ctx) => {
    if (!(LINK_ACTIONS as readonly string[]).includes(p.action)) {
      return reportInvalid(ctx, 'action', `must be one of ${LINK_ACTIONS.join(', ')}`);
    }
    const email = emailSchema.safeParse(p.email);
    if (!email.success) return reportInvalid(ctx, 'email', 'must be a valid email address');
    const mobilePhone = p.mobile_phone?.replace(/[\s()-]/g, '');
    if (mobilePhone !== undefined && !PHONE_PATTERN.test(mobilePhone)) {
      return reportInvalid(ctx, 'mobile_phone', 'must be + then 2 to 15 digits, for example +14155552671');
    }
    return {
      namespaceId: p.namespace_id,
      action: p.action as LinkAction,
      email: email.data,
      maxHits: p.max_hits,
      minutesAlive: p.minutes_alive,
      password: p.password || undefined,
      message: p.message,
      notify: p.notify === 1,
      mobilePhone,
      shareDescription: p.share_description,
      anonymizationId: p.anonymization_id,
    };
  });

const SORTS: readonly string[] = LINK_SORT_OPTIONS.map((o) => o.value);

/** link/list: the caller's pending requests, optionally of one group or account. */
export const linkListRequest = z
  .object({
    sort_by: optionalText(),
    'filter.namespace_id.equals': optionalText(),
    account_id: optionalText(),
    ...pageParams(MAX_PAGE_ROWS),
  })
  .transform((p, ctx) => {
    const sort = p.sort_by ?? DEFAULT_LINK_SORT;
    if (!SORTS.includes(sort)) return reportInvalid(ctx, 'sort_by', `must be one of ${SORTS.join(', ')}`);
    return {
      sort: sort as LinkSort,
      namespaceId: p['filter.namespace_id.equals'],
      accountId: p.account_id,
      page: { number: p['page.number'], rows: p['page.rows'] },
    };
  });

/** The public calls that take a link or send token. */
export const linkTokenRequest = z.object({ token: requiredText() });

/** link/public/unlock: the token and, for a protected link, its password (as typed). */
export const linkUnlockRequest = z.object({ token: requiredText(), password: rawText() });

/** send/public/verify: the token and the one-time code mailed to the recipient. */
export const sendVerifyRequest = z.object({ token: requiredText(), code: requiredText() });

/** send/public/study: the grant verify answered. */
export const sendGrantRequest = z.object({ grant: requiredText() });
