import type { FastifyInstance } from 'fastify';
import type { CustomFieldListAnswer } from '@imaging-inbox/contract';
import {
  customFieldAddRequest,
  customFieldDeleteRequest,
  customFieldListRequest,
  customFieldSetRequest,
  filterRows,
  pageOf,
} from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * The custom field definitions of an account: listed for its members (Exchange tab; values are set
 * with study/set), defined by its group administrators (group_edit).
 */
export function customFieldRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(
    ctx,
    app,
    'customfield/list',
    customFieldListRequest,
    async ({ caller, input, filters }): Promise<CustomFieldListAnswer> => {
      const customfields = await ctx.services.customFields.list(caller, input);
      // The object is named by Ambra's class (`Study`): the service already matched it.
      const others = filters.filter((f) => f.field !== 'object');
      const { items, page } = pageOf(filterRows(customfields, others), input.pageNumber, input.pageRows);
      return { customfields: items, page };
    },
  );

  authedRoute(ctx, app, 'customfield/add', customFieldAddRequest, ({ caller, input }) =>
    ctx.services.customFields.add(caller, input),
  );

  authedRoute(ctx, app, 'customfield/set', customFieldSetRequest, ({ caller, input }) =>
    ctx.services.customFields.set(caller, input),
  );

  authedRoute(ctx, app, 'customfield/delete', customFieldDeleteRequest, async ({ caller, input }) => {
    await ctx.services.customFields.remove(caller, input.uuid);
  });
}
