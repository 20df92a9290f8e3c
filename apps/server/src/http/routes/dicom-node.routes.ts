import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import type { Params } from '../params.js';
import { required } from '../params.js';

/** The registered DICOM senders of an account (account admins only; see docs/api-v3.md). */
export function dicomNodeRoutes(ctx: AppContext, app: FastifyInstance): void {
  const nodes = ctx.services.dicomNodes;
  const fields = (params: Params) => ({
    ae_title: params['ae_title'],
    host: params['host'],
    group_id: params['group_id'],
    name: params['name'],
  });

  authedRoute(ctx, app, 'dicom/node/list', async ({ caller, params }) => {
    const [accountId] = required(params, 'account_id');
    const list = await nodes.list(caller, accountId);
    return { nodes: list, page: { number: 1, rows: list.length, more: 0 } };
  });

  authedRoute(ctx, app, 'dicom/node/add', async ({ caller, params }) => {
    const [accountId] = required(params, 'account_id');
    return nodes.add(caller, accountId, fields(params));
  });

  authedRoute(ctx, app, 'dicom/node/set', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return nodes.set(caller, uuid, fields(params));
  });

  authedRoute(ctx, app, 'dicom/node/delete', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    await nodes.remove(caller, uuid);
  });
}
