import type { ViewerTokenAnswer } from '@imaging-inbox/contract';
import { viewerTokenRequest } from '@imaging-inbox/contract';
import type { z } from 'zod';

type ViewerTokenStudy = z.output<typeof viewerTokenRequest>;
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../policies/index.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import { authedRoute } from '../../http/api.js';

/** The study a viewer-token call names: by `uuid`, or by `storage_namespace` (or `phi_namespace`) and `study_uid`. */
function namedStudy(ctx: AppContext, caller: Caller, named: ViewerTokenStudy): Promise<StudyRow> {
  if (named.by === 'uuid') return ctx.services.studyAccess.byUuid(caller, named.uuid);
  return ctx.services.studyAccess.byStorage(caller, named.namespace, named.studyUid, { deleted: 'hidden' });
}

/**
 * `study/viewer/token`: a short-lived token that opens one study over DICOMweb, for the embedded
 * viewer (which must not carry the session id in its URL).
 */
export function studyViewerRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(
    ctx,
    app,
    'study/viewer/token',
    viewerTokenRequest,
    async ({ caller, input }): Promise<Omit<ViewerTokenAnswer, 'status'>> => {
      const study = await namedStudy(ctx, caller, input);
      const { token, expires } = await ctx.services.viewerTokens.issue(caller, study);
      return {
        token,
        expires,
        storage_namespace: study.namespace_id,
        study_uid: study.study_uid,
        phi_namespace: study.namespace_id,
      };
    },
  );
}
