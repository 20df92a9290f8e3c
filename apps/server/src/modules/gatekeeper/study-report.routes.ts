import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  MAX_REPORT_TEXT,
  WRAP_MAX_FILE_BYTES,
  studyReportAddRequest,
  type StudyReportAddAnswer,
} from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { invalidField, tooLarge } from '../../domain/errors.js';
import { BodyTooLargeError, type TempFile } from '../../storage/blob-store.js';
import { authenticate } from '../../http/api.js';
import { collectParams, type Params } from '../../http/params.js';
import { parseRequest } from '../../http/request-schema.js';

/**
 * study/report/add (study_report_add): a text report as a form or JSON field, or a PDF as the
 * multipart file `file` with the other parameters as multipart fields. A multipart call carries its
 * sid in the Authorization header (or the query): the caller is known before a byte of the body is
 * read, so an anonymous or expired call writes nothing to DATA_DIR/tmp. A PDF is at most the wrap
 * limit of one file.
 */
export function studyReportRoutes(ctx: AppContext, app: FastifyInstance, maxUploadBytes: number): void {
  const maxPdfBytes = Math.min(maxUploadBytes, WRAP_MAX_FILE_BYTES); // the wrap limit of one file
  app.route({
    method: ['GET', 'POST'],
    url: '/api/v3/study/report/add',
    handler: async (request): Promise<StudyReportAddAnswer> => {
      let temp: TempFile | undefined;
      try {
        let params = collectParams(request);
        // Multipart: only the header and the query are read yet, so the caller is known first.
        const caller = await authenticate(ctx, request, params);
        if (request.isMultipart()) {
          const body = await receiveReport(ctx, request, maxPdfBytes);
          temp = body.temp;
          params = { ...params, ...body.fields };
        }
        const input = parseRequest(studyReportAddRequest, params);
        const pdf = temp ? (temp.bytes ?? new Uint8Array(await fsp.readFile(temp.path))) : undefined;
        const report = await ctx.services.studyReports.add(caller, input.uuid, {
          title: input.title ?? '',
          final: input.final === '1',
          text: input.text,
          pdf,
        });
        return { status: 'OK', report };
      } finally {
        if (temp) await ctx.services.blobs.discard(temp);
      }
    },
  });
}

/** The multipart fields, and the `file` part (if any) streamed to a temp file. */
async function receiveReport(
  ctx: AppContext,
  request: FastifyRequest,
  maxPdfBytes: number,
): Promise<{ fields: Params; temp?: TempFile }> {
  const fields: Params = {};
  let temp: TempFile | undefined;
  try {
    // A text field may hold MAX_REPORT_TEXT characters of up to 4 UTF-8 bytes each.
    const parts = request.parts({
      limits: { fileSize: maxPdfBytes, files: 1, fields: 16, fieldSize: MAX_REPORT_TEXT * 4 },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw invalidField(part.fieldname, 'the PDF goes in the part named file');
      }
      temp = await ctx.services.blobs.writeTemp(part.file, maxPdfBytes);
      if (part.file.truncated) throw new BodyTooLargeError();
    }
  } catch (error) {
    if (temp) await ctx.services.blobs.discard(temp);
    const code = (error as { code?: string }).code;
    if (error instanceof BodyTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') {
      throw tooLarge(`at most ${maxPdfBytes} bytes`);
    }
    if (code === 'FST_FILES_LIMIT') throw invalidField('file', 'one PDF per report');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw invalidField('fields', 'too many fields');
    throw error;
  }
  return { fields, temp };
}
