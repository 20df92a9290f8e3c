import {
  orderAddRequest,
  orderListRequest,
  orderSearchRequest,
  filterRows,
  pageOf,
  studyReportListRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * Orders: an account's own (add, list) and a gatekeeper group's Search Order (with its worklist);
 * a study's reports (SR, PDF, HL7 results).
 */
export function orderRoutes(ctx: AppContext, app: FastifyInstance): void {
  const orders = ctx.services.orders;

  authedRoute(ctx, app, 'order/add', orderAddRequest, async ({ caller, input }) => ({
    order: await orders.add(caller, input),
  }));

  authedRoute(ctx, app, 'order/list', orderListRequest, async ({ caller, input }) =>
    orders.list(caller, input.accountId, input.query, input.page),
  );

  authedRoute(ctx, app, 'order/search', orderSearchRequest, async ({ caller, input }) =>
    orders.search(caller, input.groupId, input.query),
  );

  authedRoute(ctx, app, 'study/report/list', studyReportListRequest, async ({ caller, input, filters }) => {
    const all = await ctx.services.studyReports.list(caller, input.uuid);
    const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
    return { reports: items, page };
  });
}
