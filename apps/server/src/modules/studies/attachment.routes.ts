import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { attachmentListRequest, MAX_ATTACHMENT_BYTES } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { receiveFilePart } from '../../http/multipart-upload.js';
import { authedRoute, authenticate } from '../../http/api.js';
import { invalidField } from '../../domain/errors.js';
import { collectParams, optionalInt, type Params } from '../../http/params.js';
import type { Caller } from '../../policies/index.js';

interface StudyParams {
  storage_namespace: string;
  study_uid: string;
}

/**
 * Study attachments: upload (multipart field `file`), fetch a version (download or inline view),
 * delete, and the api/v3 list call. Bytes go through the blob store, never whole in memory.
 */
export function attachmentRoutes(ctx: AppContext, app: FastifyInstance): void {
  const attachments = ctx.services.attachments;
  const base = '/api/v3/storage/study/:storage_namespace/:study_uid/attachment';
  /** The study the path names, as the caller may see it (phi_namespace from the query or body). */
  const studyAt = (caller: Caller, path: StudyParams, params: Params) =>
    ctx.services.studyAccess.byStorage(
      caller,
      path.storage_namespace,
      path.study_uid,
      {},
      params['phi_namespace']?.trim(),
    );

  app.post<{ Params: StudyParams }>(base, async (request, reply) => {
    const params = collectParams(request);
    const caller = await authenticate(ctx, request, params);
    const row = await studyAt(caller, request.params, params);
    const { temp, filename } = await receiveFilePart(ctx.services.blobs, request, MAX_ATTACHMENT_BYTES);
    return reply.send({ status: 'OK', ...(await attachments.add(caller, row, temp, filename)) });
  });

  app.get<{ Params: StudyParams & { id: string; version: string; filename?: string } }>(
    `${base}/:id/version/:version/:filename?`,
    async (request, reply) => {
      const params = collectParams(request);
      const caller = await authenticate(ctx, request, params);
      const row = await studyAt(caller, request.params, params);
      const version = Number(request.params.version);
      if (!Number.isInteger(version) || version < 1)
        throw invalidField('version', 'must be a positive integer');
      const disposition = params['disposition'] === 'inline' ? 'inline' : 'attachment';
      const { attachment, content, inline } = await attachments.open(
        caller,
        row,
        request.params.id,
        version,
        disposition,
      );
      return (
        reply
          .header('content-type', attachment.mime)
          .header('content-length', String(attachment.size))
          .header(
            'content-disposition',
            contentDisposition(inline ? 'inline' : 'attachment', attachment.filename),
          )
          .header('x-content-type-options', 'nosniff')
          // No script may run from an attachment, even shown inline; the PDF viewer stays allowed.
          .header(
            'content-security-policy',
            "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; object-src 'self'; frame-ancestors 'self'",
          )
          .header('cache-control', 'private, no-store')
          .send(Readable.from(content))
      );
    },
  );

  app.delete<{ Params: StudyParams & { id: string } }>(`${base}/:id`, async (request) => {
    const params = collectParams(request);
    const caller = await authenticate(ctx, request, params);
    const row = await studyAt(caller, request.params, params);
    const version = params['version'] ? optionalInt(params, 'version', 1, 1, 1_000_000) : undefined;
    await attachments.remove(caller, row, request.params.id, version);
    return { status: 'OK' };
  });

  authedRoute(
    ctx,
    app,
    'study/attachment/list',
    attachmentListRequest,
    async ({ caller, input, filters }) => {
      const row = await ctx.services.studyAccess.byUuid(caller, input.uuid);
      return attachments.list(caller, row, input['page.number'], input['page.rows'], filters);
    },
  );
}

/**
 * RFC 6266: an ASCII fallback name (anything else becomes `_`, so no quote or newline can break
 * the header) plus the exact name as RFC 5987 UTF-8.
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const ascii = filename.replace(/[^A-Za-z0-9._ ()-]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
