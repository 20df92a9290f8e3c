import {
  filterRows,
  pageOf,
  routeAddRequest,
  routeListRequest,
  routeSetRequest,
  studyManualRouteRequest,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** Routing rules of an account (route/*) and running one by hand (study/manual/route). */
export function routingRoutes(ctx: AppContext, app: FastifyInstance): void {
  const rules = ctx.services.routingRules;

  authedRoute(ctx, app, 'route/list', routeListRequest, async ({ caller, input, filters }) => {
    const list = await rules.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { routes: items, page };
  });

  authedRoute(ctx, app, 'route/get', uuidRequest, async ({ caller, input }) => {
    return { route: await rules.get(caller, input.uuid) };
  });

  authedRoute(ctx, app, 'route/add', routeAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return { route: await rules.add(caller, accountId, fields) };
  });

  authedRoute(ctx, app, 'route/set', routeSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return { route: await rules.set(caller, uuid, fields) };
  });

  authedRoute(ctx, app, 'route/delete', uuidRequest, async ({ caller, input }) => {
    await rules.remove(caller, input.uuid);
  });

  authedRoute(ctx, app, 'study/manual/route', studyManualRouteRequest, async ({ caller, input }) => {
    return ctx.services.routing.manual(caller, input.route_id, input.uuid);
  });
}
