import type { FastifyInstance, FastifyRequest } from 'fastify';
import { WRAP_MAX_FILE_BYTES, WRAP_MAX_FILES } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import type { WrapUploadAnswer } from '@imaging-inbox/contract';
import type { ReceivedFile, WrapRequest } from './wrap.service.js';
import { WRAPPING_SETTING } from './wrap.service.js';
import { receiveFormParts } from '../../http/multipart-upload.js';
import { authenticate } from '../../http/api.js';
import { notPermitted } from '../../domain/errors.js';
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

/** The wrap form: its fields, and each `file` part pushed to `files` as it arrives (for cleanup). */
function receiveParts(
  ctx: AppContext,
  request: FastifyRequest,
  maxFileBytes: number,
  files: ReceivedFile[],
): Promise<Record<string, string>> {
  const limits = {
    maxFileBytes,
    maxFiles: WRAP_MAX_FILES,
    maxFields: 32,
    fieldBytes: 4096,
    fileFieldWhy: 'files go in parts named file',
    tooManyFilesWhy: `at most ${WRAP_MAX_FILES} files in one call`,
    tooLargeWhy: `at most ${maxFileBytes} bytes per file`,
  };
  return receiveFormParts(ctx.services.blobs, request, limits, (temp, filename) =>
    files.push({ filename: filename || `file-${files.length + 1}`, temp }),
  );
}
