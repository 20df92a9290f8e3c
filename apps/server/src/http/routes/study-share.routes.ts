import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { sendRequest } from '../../services/send.service.js';
import { shareTarget } from '../../services/share.service.js';
import { authedRoute } from '../api.js';
import { required } from '../params.js';

/**
 * Shares inside the account: study/share, study/share/who, study/share/list, study/share/stop.
 * study/share with account_id, share_code or email is a send (services/send.service.ts).
 */
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
    // account_id, share_code or email make it a send (SPEC "Send exams"); else a share in the account.
    const send = sendRequest(params);
    if (send) return ctx.services.sends.send(caller, row, send, params);
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
