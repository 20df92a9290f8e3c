import {
  anonymizationAddRequest,
  anonymizationListRequest,
  anonymizationSetRequest,
  filterRows,
  pageOf,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** An account's de-identification profiles (anonymization/*; docs/privacy.md, decision 0067). */
export function anonymizationRoutes(ctx: AppContext, app: FastifyInstance): void {
  const profiles = ctx.services.anonymization;

  authedRoute(
    ctx,
    app,
    'anonymization/list',
    anonymizationListRequest,
    async ({ caller, input, filters }) => {
      const list = await profiles.list(caller, input.account_id);
      const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
      return { profiles: items, page };
    },
  );

  authedRoute(ctx, app, 'anonymization/get', uuidRequest, async ({ caller, input }) =>
    profiles.get(caller, input.uuid),
  );

  authedRoute(ctx, app, 'anonymization/add', anonymizationAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return profiles.add(caller, accountId, fields);
  });

  authedRoute(ctx, app, 'anonymization/set', anonymizationSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return profiles.set(caller, uuid, fields);
  });

  authedRoute(ctx, app, 'anonymization/delete', uuidRequest, async ({ caller, input }) => {
    await profiles.remove(caller, input.uuid);
  });
}
