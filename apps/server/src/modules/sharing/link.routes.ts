import type { LinkAddAnswer, LinkListAnswer } from '@imaging-inbox/contract';
import { linkAddRequest, linkListRequest, filterRows, pageOf, uuidRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The requester's calls: link/add (mails the link), link/list (pending requests), link/delete (revoke). */
export function linkRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(
    ctx,
    app,
    'link/add',
    linkAddRequest,
    async ({ caller, input }): Promise<Omit<LinkAddAnswer, 'status'>> => {
      const { action: _action, ...link } = input;
      return ctx.services.links.create(caller, link);
    },
  );

  authedRoute(
    ctx,
    app,
    'link/list',
    linkListRequest,
    async ({ caller, input, filters }): Promise<Omit<LinkListAnswer, 'status'>> => {
      const links = await ctx.services.links.list(caller, input.namespaceId, input.sort);
      const { accountId } = input;
      const ofAccount = accountId
        ? links.filter((l) => caller.groups.get(l.namespace_id)?.accountId === accountId)
        : links;
      const { items, page } = pageOf(filterRows(ofAccount, filters), input.page.number, input.page.rows);
      return { links: items, page };
    },
  );

  authedRoute(ctx, app, 'link/delete', uuidRequest, async ({ caller, input }) => {
    await ctx.services.links.revoke(caller, input.uuid);
  });
}
