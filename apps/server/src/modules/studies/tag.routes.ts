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
    async ({ caller, input, filters }): Promise<Omit<TagListAnswer, 'status'>> => {
      const { 'page.number': number, 'page.rows': rows } = input;
      // One row past the page tells whether another follows.
      const limit = number * rows + 1;
      // The database matches `like` as the tag field's suggestions always have (from the start);
      // an exact tag narrows it the same way, then must match whole.
      const exact = filters.filter((f) => f.condition === 'equals');
      const pattern = input['filter.tag.like'] ?? exact[0]?.values[0];
      const tags = await ctx.repos.tags.suggest(viewableNamespaces(caller), pattern, limit);
      const tagRows = filterRows(
        tags.map((tag) => ({ tag })),
        exact,
      );
      const { items, page } = pageOf(tagRows, number, rows);
      return { tags: items, page };
    },
  );
}
