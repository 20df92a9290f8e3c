import {
  WEBHOOK_EVENTS,
  noParams,
  filterRows,
  pageOf,
  uuidRequest,
  webhookAddRequest,
  webhookDeliveryListRequest,
  webhookListRequest,
  webhookSetRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** Webhooks of an account and their delivery log (its admins'), and the events a webhook may name. */
export function webhookRoutes(ctx: AppContext, app: FastifyInstance): void {
  const webhooks = ctx.services.webhooks;

  authedRoute(ctx, app, 'webhook/event', noParams, () => ({ events: [...WEBHOOK_EVENTS] }));

  authedRoute(ctx, app, 'webhook/list', webhookListRequest, async ({ caller, input, filters }) => {
    const list = await webhooks.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { webhooks: items, page };
  });

  authedRoute(ctx, app, 'webhook/get', uuidRequest, async ({ caller, input }) => {
    return { webhook: await webhooks.get(caller, input.uuid) };
  });

  authedRoute(ctx, app, 'webhook/add', webhookAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return { webhook: await webhooks.add(caller, accountId, fields) };
  });

  authedRoute(ctx, app, 'webhook/set', webhookSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return { webhook: await webhooks.set(caller, uuid, fields) };
  });

  authedRoute(ctx, app, 'webhook/delete', uuidRequest, async ({ caller, input }) => {
    await webhooks.remove(caller, input.uuid);
  });

  authedRoute(ctx, app, 'webhook/delivery/list', webhookDeliveryListRequest, async ({ caller, input }) => {
    return webhooks.deliveries(caller, input.uuid, input['page.number'], input['page.rows']);
  });
}
