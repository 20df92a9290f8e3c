import type { FastifyInstance } from 'fastify';
import type { CustomFieldListAnswer } from '@imaging-inbox/contract';
import { customFieldListRequest, pageOf } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';

/** The custom field definitions of an account (Exchange tab; values are set with study/set). */
export function customFieldRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(
    ctx,
    app,
    'customfield/list',
    customFieldListRequest,
    async ({ caller, input }): Promise<CustomFieldListAnswer> => {
      const customfields = await ctx.services.customFields.list(caller, input);
      const { items, page } = pageOf(customfields, input.pageNumber, input.pageRows);
      return { customfields: items, page };
    },
  );
}
