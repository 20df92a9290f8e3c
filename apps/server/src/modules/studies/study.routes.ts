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
  /** A study named by uuid or storage triplet (Ambra's SDK names it either way), else NOT_FOUND. */
  const rowOf = (caller: Caller, ref: NamedStudy) =>
    ref.by === 'uuid'
      ? ctx.services.studyAccess.byUuid(caller, ref.uuid)
      : ctx.services.studyAccess.byStorage(caller, ref.namespace, ref.studyUid, {}, ref.phiNamespace);

  authedRoute(ctx, app, 'study/list', studySearchRequest, ({ caller, input }) => studies.list(caller, input));

  authedRoute(ctx, app, 'study/count', studySearchRequest, async ({ caller, input }) => ({
    count: await studies.count(caller, input),
  }));

  authedRoute(ctx, app, 'study/get', namedStudyRequest, async ({ caller, input }) =>
    studies.get(caller, input.by === 'uuid' ? input.uuid : (await rowOf(caller, input)).uuid),
  );

  // Ambra's study/permissions: what the caller may do with the study (study/get answers the same).
  authedRoute(ctx, app, 'study/permissions', studyUuidRequest, async ({ caller, input }) => ({
    permissions: studyPermissions(caller, await ctx.services.studyAccess.byUuid(caller, input.uuid)),
  }));

  authedRoute(ctx, app, 'study/exists', studyExistsRequest, async ({ caller, input }) => {
    if (input.by === 'account') {
      const accountId = input.accountId ?? [...caller.accounts.keys()][0] ?? '';
      return { exists: (await studies.exists(caller, input.studyUid, accountId)) ? 1 : 0 };
    }
    // By uuid or storage triplet: a study the caller may not view does not exist for them.
    const found = await rowOf(caller, input).then(
      () => true,
      (err: unknown) => {
        if (err instanceof DomainError && err.errorType === 'NOT_FOUND') return false;
        throw err;
      },
    );
    return { exists: found ? 1 : 0 };
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
    input.study.by === 'uuid'
      ? ctx.services.studyUploads.sync(caller, input.study.uuid, input.image_count)
      : rowOf(caller, input.study).then((row) =>
          ctx.services.studyUploads.sync(caller, row.uuid, input.image_count),
        ),
  );

  authedRoute(ctx, app, 'study/timing/event', studyTimingEventRequest, async ({ caller, input }) => {
    const row = await rowOf(caller, input.study);
    await ctx.services.audit.record(
      studyEvent(caller, row, 'STUDY_TIMING', { event: input.event, timing: input.timing }),
    );
  });
}
