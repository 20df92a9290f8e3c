import type { FastifyInstance } from 'fastify';
import type { CustomFieldListAnswer } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { required } from '../params.js';

/** The custom field definitions of an account (Exchange tab; values are set with study/set). */
export function customFieldRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'customfield/list', async ({ caller, params }): Promise<CustomFieldListAnswer> => {
    const [accountId] = required(params, 'account_id');
    const customfields = await ctx.services.customFields.list(caller, accountId, params);
    return { customfields, page: { number: 1, rows: customfields.length, more: 0 } };
  });
}
