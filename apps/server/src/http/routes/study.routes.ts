import {
  studyExistsRequest,
  studySearchRequest,
  studySetRequest,
  studyUuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';

export function studyRoutes(ctx: AppContext, app: FastifyInstance): void {
  const studies = ctx.services.studies;

  authedRoute(ctx, app, 'study/list', studySearchRequest, ({ caller, input }) => studies.list(caller, input));

  authedRoute(ctx, app, 'study/count', studySearchRequest, async ({ caller, input }) => ({
    count: await studies.count(caller, input),
  }));

  authedRoute(ctx, app, 'study/get', studyUuidRequest, ({ caller, input }) =>
    studies.get(caller, input.uuid),
  );

  authedRoute(ctx, app, 'study/exists', studyExistsRequest, async ({ caller, input }) => {
    const accountId = input.accountUuid ?? input.account_id ?? [...caller.accounts.keys()][0] ?? '';
    return { exists: (await studies.exists(caller, input.studyUID, accountId)) ? 1 : 0 };
  });

  authedRoute(ctx, app, 'study/set', studySetRequest, ({ caller, input }) => studies.set(caller, input));

  authedRoute(ctx, app, 'study/lock', studyUuidRequest, async ({ caller, input }) => {
    await studies.setLock(caller, input.uuid, true);
  });

  authedRoute(ctx, app, 'study/unlock', studyUuidRequest, async ({ caller, input }) => {
    await studies.setLock(caller, input.uuid, false);
  });

  authedRoute(ctx, app, 'study/lock/break', studyUuidRequest, async ({ caller, input }) => {
    await studies.breakLock(caller, input.uuid);
  });
}
