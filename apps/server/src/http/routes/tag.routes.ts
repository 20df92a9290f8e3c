import { tagListRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';

export function tagRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'tag/list', tagListRequest, async ({ caller, input }) => {
    const rows = input['page.rows'];
    const namespaces = [...caller.groups.values()]
      .filter((g) => g.permissions.has('study_view'))
      .map((g) => g.namespaceId);
    const tags = await ctx.repos.tags.suggest(namespaces, input['filter.tag.like'], rows);
    return { tags: tags.map((tag) => ({ tag })), page: { number: 1, rows, more: 0 } };
  });
}
