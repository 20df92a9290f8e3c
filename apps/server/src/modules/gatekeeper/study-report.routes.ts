import fsp from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  MAX_REPORT_TEXT,
  WRAP_MAX_FILE_BYTES,
  studyReportAddRequest,
  type StudyReportAddAnswer,
} from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import type { TempFile } from '../../storage/blob-store.js';
import { receiveFormParts } from '../../http/multipart-upload.js';
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
          // The temp file is held here as soon as it exists, so `finally` discards it even on a refusal.
          const fields = await receiveReport(ctx, request, maxPdfBytes, (file) => (temp = file));
          params = { ...params, ...fields };
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

/** The report form: its fields, and the `file` part (if any) handed to `onFile` as a temp file. */
function receiveReport(
  ctx: AppContext,
  request: FastifyRequest,
  maxPdfBytes: number,
  onFile: (temp: TempFile) => void,
): Promise<Params> {
  const limits = {
    maxFileBytes: maxPdfBytes,
    maxFiles: 1,
    maxFields: 16,
    // A text field may hold MAX_REPORT_TEXT characters of up to 4 UTF-8 bytes each.
    fieldBytes: MAX_REPORT_TEXT * 4,
    fileFieldWhy: 'the PDF goes in the part named file',
    tooManyFilesWhy: 'one PDF per report',
    tooLargeWhy: `at most ${maxPdfBytes} bytes`,
  };
  return receiveFormParts(ctx.services.blobs, request, limits, onFile);
}
