import { TAG_LOOKUP_ROWS } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { optionalInt } from '../params.js';

export function tagRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'tag/list', async ({ caller, params }) => {
    const rows = optionalInt(params, 'page.rows', TAG_LOOKUP_ROWS, 1, 100);
    const namespaces = [...caller.groups.values()]
      .filter((g) => g.permissions.has('study_view'))
      .map((g) => g.namespaceId);
    const tags = await ctx.repos.tags.suggest(
      namespaces,
      params['filter.tag.like']?.trim() || undefined,
      rows,
    );
    return { tags: tags.map((tag) => ({ tag })), page: { number: 1, rows, more: 0 } };
  });
}
