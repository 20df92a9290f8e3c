import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WRAP_MAX_FILE_BYTES, WRAP_MAX_FILES } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import type { WrapUploadAnswer } from '@imaging-inbox/contract';
import type { ReceivedFile, WrapRequest } from './wrap.service.js';
import { WRAPPING_SETTING } from './wrap.service.js';
import { BodyTooLargeError } from '../../storage/blob-store.js';
import { authenticate } from '../../http/api.js';
import { DomainError, invalidField, notPermitted } from '../../domain/errors.js';
import { requireUploadGroup } from '../../policies/index.js';
import { collectParams } from '../../http/params.js';

/** The size limit of one wrapped file: the upload limit, at most the contract's WRAP_MAX_FILE_BYTES. */
export const wrapFileLimit = (maxUploadBytes: number) => Math.min(maxUploadBytes, WRAP_MAX_FILE_BYTES);

/**
 * POST storage/namespace/{namespace_id}/wrap: the non-DICOM upload. A multipart body with the patient
 * and exam fields of the upload form, one or more `file` parts (PDF, JPEG, PNG) and optionally the
 * `study_uid` an earlier call answered, to add more files to that study. Answers 202 once every
 * wrapped instance is durable. Needs study_upload in the group and the account's
 * enable_dicom_wrapping setting.
 */
export function wrapRoutes(ctx: AppContext, app: FastifyInstance, maxUploadBytes: number): void {
  const maxFileBytes = wrapFileLimit(maxUploadBytes);

  app.post<{ Params: { namespace_id: string } }>(
    '/api/v3/storage/namespace/:namespace_id/wrap',
    async (request, reply) => {
      const caller = await authenticate(ctx, request, collectParams(request));
      const group = requireUploadGroup(caller, request.params.namespace_id);
      // Asked before the body is read, so a refused call costs no disk.
      if (!(await ctx.services.wrap.isEnabled(group.accountId, group.namespaceId)))
        throw notPermitted(WRAPPING_SETTING);

      const answer = await receiveAndWrap(ctx, request, maxFileBytes, { group, userId: caller.user.uuid });
      return reply.code(202).send(answer);
    },
  );
}

/**
 * Reads the multipart body and wraps its files into one study for `who` (a member's group, or a
 * request-study link's group and link: link-public.routes.ts). The temp files are gone by the time
 * it settles, so a client that reads the answer finds none left behind.
 */
export async function receiveAndWrap(
  ctx: AppContext,
  request: FastifyRequest,
  maxFileBytes: number,
  who: Pick<WrapRequest, 'group' | 'userId' | 'link'>,
): Promise<WrapUploadAnswer> {
  const files: ReceivedFile[] = [];
  try {
    const fields = await receiveParts(ctx, request, maxFileBytes, files);
    return await ctx.services.wrap.wrap({ ...who, ip: request.ip, fields, files });
  } finally {
    await Promise.all(files.map((f) => ctx.services.blobs.discard(f.temp)));
  }
}

/** Fields into a map and `file` parts into temp files (pushed to `files` as they arrive, for cleanup). */
async function receiveParts(
  ctx: AppContext,
  request: FastifyRequest,
  maxFileBytes: number,
  files: ReceivedFile[],
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new DomainError('MISSING_FIELDS', 'file', ['file']);
  const fields: Record<string, string> = {};
  try {
    const parts = request.parts({
      limits: { fileSize: maxFileBytes, files: WRAP_MAX_FILES, fields: 32, fieldSize: 4096 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw invalidField(part.fieldname, 'files go in parts named file');
      }
      const temp = await ctx.services.blobs.writeTemp(part.file, maxFileBytes);
      files.push({ filename: part.filename || `file-${files.length + 1}`, temp });
      if (part.file.truncated) throw new BodyTooLargeError();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (error instanceof BodyTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new DomainError('FILE_TOO_LARGE', `at most ${maxFileBytes} bytes per file`);
    }
    if (code === 'FST_FILES_LIMIT') throw invalidField('file', `at most ${WRAP_MAX_FILES} files in one call`);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw invalidField('fields', 'too many fields');
    throw error;
  }
  return fields;
}
