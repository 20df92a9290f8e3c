import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import type { UploadOwner, UploadTarget } from '../../ingest/upload-session.service.js';
import { apiRoute, authenticate } from '../api.js';
import { DomainError } from '../../domain/errors.js';
import { mayUploadTo, requireUploadGroup } from '../../policies/index.js';
import type { Params } from '../params.js';
import { collectParams, required } from '../params.js';

/** Resolves the caller of one upload-session call: who owns sessions, and where a new one goes. */
export type UploadCaller = (
  request: FastifyRequest,
  params: Params,
) => Promise<{ owner: UploadOwner; targetOf: (params: Params) => UploadTarget }>;

const wholeNumber = (params: Params, name: string): number => {
  const [raw] = required(params, name);
  if (!/^\d{1,16}$/.test(raw)) throw new DomainError('INVALID_FIELD', name, 'a whole number of bytes');
  return Number(raw);
};

/**
 * The four calls of a resumable upload under `base` (upload/session or link/public/upload/session):
 * create (optional head_sha256), chunk (raw body at ?offset=), status (optional head_sha256: the
 * resume check) and complete. `caller` decides who owns the sessions.
 */
export function registerUploadSessionRoutes(
  ctx: AppContext,
  app: FastifyInstance,
  base: string,
  caller: UploadCaller,
): void {
  const sessions = ctx.services.uploadSessions;

  apiRoute(app, `${base}/create`, async ({ params, request }) => {
    const { owner, targetOf } = await caller(request, params);
    const { status: _status, ...answer } = await sessions.create(
      owner,
      targetOf(params),
      wholeNumber(params, 'size'),
      params.head_sha256?.trim(),
    );
    return answer;
  });

  apiRoute(app, `${base}/status`, async ({ params, request }) => {
    const { owner } = await caller(request, params);
    const [id] = required(params, 'id');
    const { status: _status, ...answer } = await sessions.status(owner, id, params.head_sha256?.trim());
    return answer;
  });

  app.route({
    method: ['PUT', 'POST'],
    url: `/api/v3/${base}/chunk`,
    handler: async (request) => {
      const params = collectParams(request);
      // Check who is asking before a byte of the body is read.
      const { owner } = await caller(request, params);
      const [id] = required(params, 'id');
      const offset = wholeNumber(params, 'offset');
      const length = Number(request.headers['content-length'] ?? NaN);
      const body = request.body as Readable | undefined;
      if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') {
        throw new DomainError('FILE_CONTENT_EMPTY', 'send the chunk as application/octet-stream');
      }
      return sessions.append(owner, id, offset, length, body);
    },
  });

  apiRoute(app, `${base}/complete`, async ({ params, request, reply }) => {
    const { owner } = await caller(request, params);
    const [id] = required(params, 'id');
    const answer = await sessions.complete(owner, id, request.ip);
    reply.code(202);
    const { status: _status, ...rest } = answer;
    return rest;
  });
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
      targetOf: (p) => {
        const [namespaceId] = required(p, 'namespace_id');
        const group = requireUploadGroup(user, namespaceId);
        return {
          target: { accountId: group.accountId, namespaceId: group.namespaceId },
          source: { kind: 'upload', userId: user.user.uuid },
        };
      },
    };
  });
}
