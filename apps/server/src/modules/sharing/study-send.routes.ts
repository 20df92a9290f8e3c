import {
  connectionListRequest,
  filterRows,
  pageOf,
  studyItemListRequest,
  studyUuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * Send exams, besides study/share itself: the sends of a study and cancelling a delayed one, and
 * the account's connections. The share-code lookup is namespace/share_code (namespace.routes.ts).
 */
export function studySendRoutes(ctx: AppContext, app: FastifyInstance): void {
  const sends = ctx.services.sends;

  authedRoute(ctx, app, 'study/send/list', studyItemListRequest, async ({ caller, input, filters }) => {
    const { sends: list } = await sends.list(await ctx.services.studyAccess.byUuid(caller, input.uuid));
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { sends: items, page };
  });

  authedRoute(ctx, app, 'study/send/cancel', studyUuidRequest, async ({ caller, input }) => {
    return sends.cancel(caller, input.uuid);
  });

  // By account_id, or by a study's uuid: the connections of the account that holds it.
  authedRoute(ctx, app, 'connection/list', connectionListRequest, async ({ caller, input, filters }) => {
    const accountId =
      input.by === 'study'
        ? (await ctx.services.studyAccess.byUuid(caller, input.uuid)).account_id
        : input.accountId;
    const { connections } = await sends.connections(caller, accountId);
    const { items, page } = pageOf(filterRows(connections, filters), input.page.number, input.page.rows);
    return { connections: items, page };
  });
}
