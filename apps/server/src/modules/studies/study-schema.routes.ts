import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authenticate } from '../../http/api.js';
import { collectParams } from '../../http/params.js';

/** The storage engine's `schema` of a study, addressed as its other storage calls are. */
export function studySchemaRoutes(ctx: AppContext, app: FastifyInstance): void {
  app.get<{ Params: { storage_namespace: string; study_uid: string } }>(
    '/api/v3/storage/study/:storage_namespace/:study_uid/schema',
    async (request) => {
      const params = collectParams(request);
      const caller = await authenticate(ctx, request, params);
      const { storage_namespace: storage, study_uid: studyUid } = request.params;
      const row = await ctx.services.studyAccess.byStorage(
        caller,
        storage,
        studyUid,
        {},
        params['phi_namespace']?.trim(),
      );
      return { status: 'OK', ...(await ctx.services.studySchemas.of(caller, row)) };
    },
  );
}
