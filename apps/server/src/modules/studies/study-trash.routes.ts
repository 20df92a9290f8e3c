import { studyRefRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * study/delete and study/restore act on one study each; the inbox sends many through bundle and
 * counts the answers (OK, NOT_PERMITTED, NOT_FOUND, MISSING_FIELDS).
 */
export function studyTrashRoutes(ctx: AppContext, app: FastifyInstance): void {
  const trash = ctx.services.trash;

  authedRoute(ctx, app, 'study/delete', studyRefRequest, async ({ caller, input }) => {
    await trash.delete(caller, await trash.find(caller, input));
  });

  authedRoute(ctx, app, 'study/restore', studyRefRequest, async ({ caller, input }) => {
    await trash.restore(caller, await trash.find(caller, input));
  });
}
