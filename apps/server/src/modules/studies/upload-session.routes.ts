import {
  uploadSessionChunkRequest,
  uploadSessionCompleteRequest,
  uploadSessionCreateRequest,
  uploadSessionStatusRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { UploadOwner, UploadTarget } from '../../ingest/upload-session.service.js';
import { authenticate, guardedRoute } from '../../http/api.js';
import { DomainError, missingFields } from '../../domain/errors.js';
import { mayUploadTo, requireUploadGroup } from '../../policies/index.js';
import type { Params } from '../../http/params.js';
import { collectParams } from '../../http/params.js';
import { parseRequest } from '../../http/request-schema.js';

/** Resolves the caller of one upload-session call: who owns sessions, and where a new one goes. */
export type UploadCaller = (
  request: FastifyRequest,
  params: Params,
) => Promise<{
  owner: UploadOwner;
  targetOf: (namespaceId: string | undefined) => UploadTarget;
  /** Run on the study a completed session stored into (a request link gives it its share description). */
  afterStored?: (studyUuid: string) => Promise<void>;
  /** What a completed file is stored as instead (a de-identifying request link, decision 0071). */
  rewrite?: ((bytes: Uint8Array) => Promise<Uint8Array>) | undefined;
}>;

/**
 * The four calls of a resumable upload under `base` (upload/session or link/public/upload/session):
 * create (optional head_sha256), chunk (raw body at ?offset=), status (optional head_sha256: the
 * resume check) and complete. `caller` decides who owns the sessions.
 */
export function registerUploadSessionRoutes(
  ctx: AppContext,
  app: FastifyInstance,
  base: 'upload/session' | 'link/public/upload/session',
  caller: UploadCaller,
): void {
  const sessions = ctx.services.uploadSessions;

  guardedRoute(app, `${base}/create`, caller, uploadSessionCreateRequest, async ({ guard, input }) => {
    const { owner, targetOf } = guard;
    const { status: _status, ...answer } = await sessions.create(
      owner,
      targetOf(input.namespace_id),
      input.size,
      input.head_sha256,
    );
    return answer;
  });

  guardedRoute(app, `${base}/status`, caller, uploadSessionStatusRequest, async ({ guard, input }) => {
    const { status: _status, ...answer } = await sessions.status(guard.owner, input.id, input.head_sha256);
    return answer;
  });

  app.route({
    method: ['PUT', 'POST'],
    url: `/api/v3/${base}/chunk`,
    handler: async (request) => {
      const params = collectParams(request);
      // Check who is asking before a byte of the body is read.
      const { owner } = await caller(request, params);
      const { id, offset } = parseRequest(uploadSessionChunkRequest, params);
      const length = Number(request.headers['content-length'] ?? NaN);
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') {
        throw new DomainError('FILE_CONTENT_EMPTY', 'send the chunk as application/octet-stream');
      }
      return sessions.append(owner, id, offset, length, body);
    },
  });

  guardedRoute(
    app,
    `${base}/complete`,
    caller,
    uploadSessionCompleteRequest,
    async ({ guard, input, request, reply }) => {
      const answer = await sessions.complete(guard.owner, input.id, request.ip, guard.rewrite);
      await guard.afterStored?.(answer.study_uuid);
      reply.code(202);
      const { status: _status, ...rest } = answer;
      return rest;
    },
  );
}

/** Signed-in uploads: sessions belong to the sign-in session; files go to a group with study_upload. */
export function uploadSessionRoutes(ctx: AppContext, app: FastifyInstance): void {
  registerUploadSessionRoutes(ctx, app, 'upload/session', async (request, params) => {
    const user = await authenticate(ctx, request, params);
    return {
      owner: {
        key: `session:${user.sidHash}`,
        mayUploadTo: (namespaceId) => mayUploadTo(user, namespaceId),
      },
      targetOf: (namespaceId) => {
        if (!namespaceId) throw missingFields(['namespace_id']);
        const group = requireUploadGroup(user, namespaceId);
        return {
          target: { accountId: group.accountId, namespaceId: group.namespaceId },
          source: { kind: 'upload', userId: user.user.uuid },
        };
      },
    };
  });
}
