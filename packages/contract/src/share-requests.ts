import { z } from 'zod';
import {
  optionalText,
  pageParams,
  rawText,
  reportInvalid,
  reportMissing,
  requiredText,
} from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';

/** Request schemas of study/share and its companions (shares inside the account and sends). */

/** The one recipient of a share inside the account. */
export type ShareTargetParam = { type: 'user'; id: string } | { type: 'group'; id: string };

/** The send named by study/share's account_id, share_code or email. */
export type SendTargetParam =
  | { method: 'account'; connection: string }
  | { method: 'share_code'; code: string }
  | { method: 'email'; email: string };

const targetParams = { user_id: optionalText(), group_id: optionalText() };

/** user_id or group_id, exactly one. */
function shareTargetOf(
  p: { user_id?: string | undefined; group_id?: string | undefined },
  ctx: z.core.$RefinementCtx<unknown>,
): ShareTargetParam {
  if (p.user_id && p.group_id) return reportInvalid(ctx, 'user_id', 'name either user_id or group_id');
  if (p.user_id) return { type: 'user', id: p.user_id };
  if (p.group_id) return { type: 'group', id: p.group_id };
  return reportMissing(ctx, 'user_id', 'group_id');
}

const SEND_KEYS = ['account_id', 'share_code', 'email'] as const;

/**
 * study/share: with account_id, share_code or email it is a send (SPEC "Send exams"), else a share
 * in the account with user_id or group_id. `message` and `delay` as sent.
 */
export const studyShareRequest = z
  .object({
    uuid: requiredText(),
    account_id: rawText(),
    share_code: rawText(),
    email: rawText(),
    ...targetParams,
    message: rawText(),
    delay: rawText(),
  })
  .transform((p, ctx) => {
    const base = { uuid: p.uuid, message: p.message, delayed: p.delay === '1' || p.delay === 'true' };
    const present = SEND_KEYS.filter((k) => p[k] !== undefined);
    if (!present.length) return { ...base, send: undefined, target: shareTargetOf(p, ctx) };
    if (present.length > 1)
      return reportInvalid(ctx, present[1]!, 'name one of account_id, share_code or email');
    const key = present[0]!;
    const value = p[key]!.trim();
    if (!value) return reportMissing(ctx, key);
    const send: SendTargetParam =
      key === 'account_id'
        ? { method: 'account', connection: value }
        : key === 'share_code'
          ? { method: 'share_code', code: value }
          : { method: 'email', email: value };
    return { ...base, send, target: undefined };
  });
export type StudyShareRequest = z.output<typeof studyShareRequest>;

/** study/share/stop: the study and the recipient to stop sharing with. */
export const studyShareStopRequest = z
  .object({ uuid: requiredText(), ...targetParams })
  .transform((p, ctx) => ({ uuid: p.uuid, target: shareTargetOf(p, ctx) }));

/** study/share/who: whom the study could be shared with, users or groups. */
export const studyShareWhoRequest = z.object({ uuid: requiredText(), type: requiredText() });

/** connection/list: by account_id, or by a study's uuid (the connections of its account). */
export const connectionListRequest = z
  .object({ uuid: optionalText(), account_id: optionalText(), ...pageParams(MAX_PAGE_ROWS) })
  .transform((p, ctx) => {
    const page = { number: p['page.number'], rows: p['page.rows'] };
    if (p.uuid) return { by: 'study' as const, uuid: p.uuid, page };
    if (p.account_id) return { by: 'account' as const, accountId: p.account_id, page };
    return reportMissing(ctx, 'account_id');
  });
