import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { shareTarget } from '../../services/share.service.js';
import { authedRoute } from '../api.js';
import { required } from '../params.js';

/** Shares inside the account: study/share, study/share/who, study/share/list, study/share/stop. */
export function studyShareRoutes(ctx: AppContext, app: FastifyInstance): void {
  const shares = ctx.services.shares;
  const studies = ctx.services.studies;

  authedRoute(ctx, app, 'study/share/who', async ({ caller, params }) => {
    const [uuid, type] = required(params, 'uuid', 'type');
    return shares.who(caller, await studies.requireVisible(caller, uuid), type);
  });

  authedRoute(ctx, app, 'study/share', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    const row = await studies.requireVisible(caller, uuid);
    await shares.share(caller, row, shareTarget(params), params['message']);
  });

  authedRoute(ctx, app, 'study/share/list', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return shares.list(await studies.requireVisible(caller, uuid));
  });

  authedRoute(ctx, app, 'study/share/stop', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    const row = await studies.requireVisible(caller, uuid);
    await shares.stop(caller, row, shareTarget(params));
  });
}
