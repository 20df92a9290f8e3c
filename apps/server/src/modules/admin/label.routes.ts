import {
  labelDeleteRequest,
  labelListRequest,
  labelSetRequest,
  filterRows,
  pageOf,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The account's label overrides: read by its members, changed by label_edit holders. */
export function labelRoutes(ctx: AppContext, app: FastifyInstance): void {
  const labels = ctx.services.labels;

  authedRoute(ctx, app, 'label/list', labelListRequest, async ({ caller, input, filters }) => {
    const all = await labels.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
    return { labels: items, page };
  });

  authedRoute(ctx, app, 'label/set', labelSetRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...label } = input;
    return { label: await labels.set(caller, accountId, label) };
  });

  authedRoute(ctx, app, 'label/delete', labelDeleteRequest, async ({ caller, input }) => {
    await labels.remove(caller, input.account_id, input.language, input.key);
  });
}
