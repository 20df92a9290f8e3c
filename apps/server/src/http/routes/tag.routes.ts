import { tagListRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { viewableNamespaces } from '../../policies/index.js';

export function tagRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'tag/list', tagListRequest, async ({ caller, input }) => {
    const rows = input['page.rows'];
    const tags = await ctx.repos.tags.suggest(viewableNamespaces(caller), input['filter.tag.like'], rows);
    return { tags: tags.map((tag) => ({ tag })), page: { number: 1, rows, more: 0 } };
  });
}
