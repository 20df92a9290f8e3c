import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { missingFields } from '../../domain/errors.js';
import type { Params } from '../params.js';

/**
 * study/delete and study/restore act on one study each; the inbox sends many through bundle and
 * counts the answers (OK, NOT_PERMITTED, NOT_FOUND, MISSING_FIELDS).
 */
export function studyTrashRoutes(ctx: AppContext, app: FastifyInstance): void {
  const trash = ctx.services.trash;

  authedRoute(ctx, app, 'study/delete', async ({ caller, params }) => {
    await trash.delete(caller, await trash.find(caller, studyRef(params)));
  });

  authedRoute(ctx, app, 'study/restore', async ({ caller, params }) => {
    await trash.restore(caller, await trash.find(caller, studyRef(params)));
  });
}

/** A uuid, or the storage-style triple (phi_namespace or storage_namespace, study_uid). */
function studyRef(params: Params): { uuid: string } | { namespace: string; studyUid: string } {
  const uuid = params['uuid']?.trim();
  if (uuid) return { uuid };
  const namespace = params['phi_namespace']?.trim() || params['storage_namespace']?.trim();
  const studyUid = params['study_uid']?.trim();
  if (namespace && studyUid) return { namespace, studyUid };
  throw missingFields(['uuid']);
}
