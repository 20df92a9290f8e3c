import { filterRows, pageOf, tagListRequest } from '@imaging-inbox/contract';
import type { TagListAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import { viewableNamespaces } from '../../policies/index.js';

export function tagRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(
    ctx,
    app,
    'tag/list',
    tagListRequest,
    async ({ caller, input }): Promise<Omit<TagListAnswer, 'status'>> => {
      const { 'page.number': number, 'page.rows': rows } = input;
      // One row past the page tells whether another follows.
      const limit = number * rows + 1;
      const tags = await ctx.repos.tags.suggest(viewableNamespaces(caller), input['filter.tag.like'], limit);
      const { items, page } = pageOf(tags, number, rows);
      return { tags: items.map((tag) => ({ tag })), page };
    },
  );
}
