import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { required } from '../params.js';

export function studyRoutes(ctx: AppContext, app: FastifyInstance): void {
  const studies = ctx.services.studies;

  authedRoute(ctx, app, 'study/list', ({ caller, params }) => studies.list(caller, params));

  authedRoute(ctx, app, 'study/count', async ({ caller, params }) => ({
    count: await studies.count(caller, params),
  }));

  authedRoute(ctx, app, 'study/get', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return studies.get(caller, uuid);
  });

  authedRoute(ctx, app, 'study/exists', async ({ caller, params }) => {
    const [studyUid] = required(params, 'studyUID');
    const accountId =
      params['accountUuid']?.trim() || params['account_id']?.trim() || [...caller.accounts.keys()][0] || '';
    return { exists: (await studies.exists(caller, studyUid, accountId)) ? 1 : 0 };
  });

  authedRoute(ctx, app, 'study/set', ({ caller, params }) => studies.set(caller, params));

  authedRoute(ctx, app, 'study/lock', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    await studies.setLock(caller, uuid, true);
  });

  authedRoute(ctx, app, 'study/unlock', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    await studies.setLock(caller, uuid, false);
  });
}
