import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { uploadAnswer } from '../../ingest/upload-answer.js';
import { authenticate } from '../../http/api.js';
import { DomainError } from '../../domain/errors.js';
import { requireUploadGroup } from '../../policies/index.js';
import { collectParams } from '../../http/params.js';
import { typeUntypedUpload } from '../../http/sniff-upload-type.js';
import { asTooLarge, receiveFilePart } from '../../http/multipart-upload.js';
import type { TempFile } from '../../storage/blob-store.js';

export { uploadAnswer };

/** Raw DICOM bodies are streamed to disk, never buffered whole in memory. */
const RAW_TYPES = ['application/dicom', 'application/octet-stream'];

export function storageRoutes(ctx: AppContext, app: FastifyInstance, maxUploadBytes: number): void {
  app.addContentTypeParser(RAW_TYPES, (_request, payload, done) => done(null, payload));

  app.post<{ Params: { namespace_id: string } }>(
    '/api/v3/storage/namespace/:namespace_id/image',
    { preParsing: typeUntypedUpload },
    async (request, reply) => {
      const caller = await authenticate(ctx, request, collectParams(request));
      const group = requireUploadGroup(caller, request.params.namespace_id);

      const temp = await receiveBody(ctx, request, maxUploadBytes);
      const result = await ctx.services.ingest.ingestTemp(
        temp,
        { accountId: group.accountId, namespaceId: group.namespaceId },
        { kind: 'upload', userId: caller.user.uuid, ip: request.ip },
      );
      return reply.code(202).send(uploadAnswer(result));
    },
  );
}

/** The upload body (raw application/dicom or multipart `file`) streamed to a temp file; shared with link uploads. */
export async function receiveBody(
  ctx: AppContext,
  request: FastifyRequest,
  maxBytes: number,
): Promise<TempFile> {
  if (request.isMultipart()) return (await receiveFilePart(ctx.services.blobs, request, maxBytes)).temp;
  const body = request.body as Readable | undefined;
  if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') {
    throw new DomainError('FILE_CONTENT_EMPTY', 'send the file as application/dicom or multipart field file');
  }
  try {
    return await ctx.services.blobs.writeTemp(body, maxBytes);
  } catch (error) {
    throw asTooLarge(error, `at most ${maxBytes} bytes`);
  }
}
