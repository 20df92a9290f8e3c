import { EVENT_FLAGS } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { UserEventFlags } from '../../repositories/user-events.repository.js';
import { authedRoute } from '../api.js';
import { invalidField, missingFields } from '../../domain/errors.js';
import type { Params } from '../params.js';
import { required } from '../params.js';

/** Notification preferences: user/event (one namespace), user/event/list (all), user/event/set. */
export function userEventRoutes(ctx: AppContext, app: FastifyInstance): void {
  const prefs = ctx.services.notificationPreferences;

  authedRoute(ctx, app, 'user/event/list', async ({ caller }) => ({
    events: await prefs.list(caller),
  }));

  authedRoute(ctx, app, 'user/event', async ({ caller, params }) => {
    const [namespaceId] = required(params, 'namespace_id');
    return prefs.get(caller, namespaceId, userIdOf(params));
  });

  authedRoute(ctx, app, 'user/event/set', async ({ caller, params }) => {
    const [namespaceId] = required(params, 'namespace_id');
    return prefs.set(caller, namespaceId, flagChanges(params), userIdOf(params));
  });
}

function userIdOf(params: Params): string | undefined {
  return params['user_id']?.trim() || undefined;
}

/** event_share and/or event_harvest, each 0 or 1; at least one must be given. */
function flagChanges(params: Params): Partial<UserEventFlags> {
  const changes: Partial<UserEventFlags> = {};
  for (const flag of EVENT_FLAGS) {
    const raw = params[flag]?.trim();
    if (raw === undefined || raw === '') continue;
    if (raw !== '0' && raw !== '1') throw invalidField(flag, 'must be 0 or 1');
    changes[flag] = Number(raw);
  }
  if (Object.keys(changes).length === 0) throw missingFields([...EVENT_FLAGS]);
  return changes;
}
