import type { ViewerTokenAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Caller } from '../../policies/index.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import { authedRoute } from '../api.js';
import { missingFields } from '../../domain/errors.js';
import type { Params } from '../params.js';
import { required } from '../params.js';

/** The study a viewer-token call names: by `uuid`, or by `storage_namespace` (or `phi_namespace`) and `study_uid`. */
async function namedStudy(ctx: AppContext, caller: Caller, params: Params): Promise<StudyRow> {
  if (params['uuid']?.trim()) return ctx.services.studyAccess.byUuid(caller, params['uuid'].trim());
  const namespace = params['storage_namespace']?.trim() || params['phi_namespace']?.trim();
  const [studyUid] = required(params, 'study_uid');
  if (!namespace) throw missingFields(['storage_namespace']);
  return ctx.services.studyAccess.byStorage(caller, namespace, studyUid, { deleted: 'hidden' });
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
    async ({ caller, params }): Promise<Omit<ViewerTokenAnswer, 'status'>> => {
      const study = await namedStudy(ctx, caller, params);
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
