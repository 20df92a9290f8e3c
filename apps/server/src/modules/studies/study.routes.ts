import {
  studyAddRequest,
  studyExistsRequest,
  studySearchRequest,
  studySetRequest,
  studySyncRequest,
  namedStudyRequest,
  studyTimingEventRequest,
  studyUuidRequest,
} from '@imaging-inbox/contract';
import type { NamedStudy } from '@imaging-inbox/contract';
import { studyEvent } from '../../audit/audit.service.js';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import { DomainError } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { studyPermissions } from '../../policies/index.js';

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

  // Ambra's uploader: the study first (unlisted while it fills), then the count of images it sent.
  authedRoute(ctx, app, 'study/add', studyAddRequest, ({ caller, input }) =>
    ctx.services.studyUploads.add(caller, input),
  );

  authedRoute(ctx, app, 'study/sync', studySyncRequest, ({ caller, input }) =>
    ctx.services.studyUploads.sync(caller, input.uuid, input.image_count),
  );

  authedRoute(ctx, app, 'study/timing/event', studyTimingEventRequest, async ({ caller, input }) => {
    const row = await ctx.services.studyAccess.byUuid(caller, input.uuid);
    await ctx.services.audit.record(
      studyEvent(caller, row, 'STUDY_TIMING', { event: input.event, timing: input.timing }),
    );
  });
}
