import { studyStarRequest, tagChangeRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** tag/add, tag/delete (object=study only) and study/star. */
export function studyMarksRoutes(ctx: AppContext, app: FastifyInstance): void {
  const marks = ctx.services.marks;

  for (const [path, add] of [
    ['tag/add', true],
    ['tag/delete', false],
  ] as const) {
    authedRoute(ctx, app, path, tagChangeRequest, async ({ caller, input }) => {
      await marks.tag(caller, await ctx.services.studyAccess.byUuid(caller, input.studyUuid), input.tag, add);
    });
  }

  authedRoute(ctx, app, 'study/star', studyStarRequest, async ({ caller, input }) => {
    await marks.star(caller, await ctx.services.studyAccess.byUuid(caller, input.uuid), input.star);
  });
}
