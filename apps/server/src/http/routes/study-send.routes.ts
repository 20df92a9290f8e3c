import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { required } from '../params.js';

/**
 * Send exams, besides study/share itself: the sends of a study and cancelling a delayed one, and
 * the account's connections. The share-code lookup is namespace/share_code (namespace.routes.ts).
 */
export function studySendRoutes(ctx: AppContext, app: FastifyInstance): void {
  const sends = ctx.services.sends;

  authedRoute(ctx, app, 'study/send/list', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return sends.list(await ctx.services.studies.requireVisible(caller, uuid));
  });

  authedRoute(ctx, app, 'study/send/cancel', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return sends.cancel(caller, uuid);
  });

  // By account_id, or by a study's uuid: the connections of the account that holds it.
  authedRoute(ctx, app, 'connection/list', async ({ caller, params }) => {
    const study = params['uuid']?.trim();
    if (study) {
      const row = await ctx.services.studies.requireVisible(caller, study);
      return sends.connections(caller, row.account_id);
    }
    const [accountId] = required(params, 'account_id');
    return sends.connections(caller, accountId);
  });
}
