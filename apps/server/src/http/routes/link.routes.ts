import type { LinkAddAnswer, LinkListAnswer, LinkSort } from '@imaging-inbox/contract';
import {
  DEFAULT_LINK_SORT,
  LINK_ACTIONS,
  LINK_SORT_OPTIONS,
  MAX_INT,
  emailSchema,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { invalidField } from '../../domain/errors.js';
import type { Params } from '../params.js';
import { flag, optionalInt, required } from '../params.js';

const SORTS: readonly string[] = LINK_SORT_OPTIONS.map((o) => o.value);

/** A required integer from 1 to MAX_INT (SPEC.md section 9); anything else is INVALID_FIELD. */
function requiredCount(params: Params, name: string): number {
  required(params, name);
  return optionalInt(params, name, 0, 1, MAX_INT);
}

/** The requester's calls: link/add (mails the link), link/list (pending requests), link/delete (revoke). */
export function linkRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'link/add', async ({ caller, params }): Promise<Omit<LinkAddAnswer, 'status'>> => {
    const [namespaceId, action, rawEmail] = required(params, 'namespace_id', 'action', 'email');
    if (!(LINK_ACTIONS as readonly string[]).includes(action)) {
      throw invalidField('action', `must be one of ${LINK_ACTIONS.join(', ')}`);
    }
    const email = emailSchema.safeParse(rawEmail);
    if (!email.success) throw invalidField('email', 'must be a valid email address');
    return ctx.services.links.create(caller, {
      namespaceId,
      email: email.data,
      maxHits: requiredCount(params, 'max_hits'),
      minutesAlive: requiredCount(params, 'minutes_alive'),
      password: params['password'] || undefined,
      message: params['message']?.trim() || undefined,
      notify: (flag(params['notify']) ?? 0) === 1,
    });
  });

  authedRoute(ctx, app, 'link/list', async ({ caller, params }): Promise<Omit<LinkListAnswer, 'status'>> => {
    const sort = params['sort_by']?.trim() || DEFAULT_LINK_SORT;
    if (!SORTS.includes(sort)) throw invalidField('sort_by', `must be one of ${SORTS.join(', ')}`);
    const namespaceId = params['filter.namespace_id.equals']?.trim() || undefined;
    const accountId = params['account_id']?.trim();
    const links = await ctx.services.links.list(caller, namespaceId, sort as LinkSort);
    return {
      links: accountId
        ? links.filter((l) => caller.groups.get(l.namespace_id)?.accountId === accountId)
        : links,
    };
  });

  authedRoute(ctx, app, 'link/delete', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    await ctx.services.links.revoke(caller, uuid);
  });
}
