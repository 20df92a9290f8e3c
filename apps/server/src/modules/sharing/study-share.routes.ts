import {
  filterRows,
  pageOf,
  studyItemListRequest,
  studyShareRequest,
  studyShareStopRequest,
  studyShareWhoRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * Shares inside the account: study/share, study/share/who, study/share/list, study/share/stop.
 * study/share with account_id, share_code or email is a send (services/send.service.ts).
 */
export function studyShareRoutes(ctx: AppContext, app: FastifyInstance): void {
  const shares = ctx.services.shares;

  authedRoute(ctx, app, 'study/share/who', studyShareWhoRequest, async ({ caller, input }) => {
    return shares.who(caller, await ctx.services.studyAccess.byUuid(caller, input.uuid), input.type);
  });

  authedRoute(ctx, app, 'study/share', studyShareRequest, async ({ caller, input }) => {
    const row = await ctx.services.studyAccess.byUuid(caller, input.uuid);
    // account_id, share_code or email make it a send (SPEC "Send exams"); else a share in the account.
    if (input.send) return ctx.services.sends.send(caller, row, input.send, input);
    // A de-identifying group answers what its copy holds and what was left out.
    return (await shares.share(caller, row, input.target, input.message)) ?? {};
  });

  authedRoute(ctx, app, 'study/share/list', studyItemListRequest, async ({ caller, input, filters }) => {
    const row = await ctx.services.studyAccess.byUuid(caller, input.uuid);
    const { shares: list } = await shares.list(row);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    const namespace = await ctx.repos.accounts.namespace(row.namespace_id);
    return { shares: items, page, owner: { namespace_id: row.namespace_id, name: namespace?.name ?? '' } };
  });

  authedRoute(ctx, app, 'study/share/stop', studyShareStopRequest, async ({ caller, input }) => {
    const row = await ctx.services.studyAccess.byUuid(caller, input.uuid);
    await shares.stop(caller, row, input.target);
  });
}
