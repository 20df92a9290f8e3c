import {
  filterRows,
  pageOf,
  pageRequest,
  userEventRequest,
  userEventSetRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** Notification preferences: user/event (one namespace), user/event/list (all), user/event/set. */
export function userEventRoutes(ctx: AppContext, app: FastifyInstance): void {
  const prefs = ctx.services.notificationPreferences;

  authedRoute(ctx, app, 'user/event/list', pageRequest, async ({ caller, input, filters }) => {
    const { items, page } = pageOf(
      filterRows(await prefs.list(caller), filters),
      input['page.number'],
      input['page.rows'],
    );
    return { events: items, page };
  });

  authedRoute(ctx, app, 'user/event', userEventRequest, async ({ caller, input }) => {
    return prefs.get(caller, input.namespace_id, input.user_id);
  });

  authedRoute(ctx, app, 'user/event/set', userEventSetRequest, async ({ caller, input }) => {
    return prefs.set(caller, input.namespaceId, input.changes, input.userId);
  });
}
