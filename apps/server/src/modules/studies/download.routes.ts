import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { DICOM_FILE_SET_ID } from '../../dicom/dicomdir.js';
import type { AppContext } from '../../context.js';
import { storageDownloadRequest, studyDownloadRequest } from '@imaging-inbox/contract';
import type { DownloadPlan, DownloadTarget } from './download.service.js';
import { isoStream } from '../../storage/iso-stream.js';
import { zipStream } from '../../storage/zip-stream.js';
import { authenticate } from '../../http/api.js';
import { collectParams } from '../../http/params.js';
import { parseRequest } from '../../http/request-schema.js';

/**
 * ZIP and ISO downloads. These answer bytes rather than api/v3 JSON, so they are plain routes; errors
 * found before the first byte (permissions, unknown study) still answer 412 JSON.
 */
export function downloadRoutes(ctx: AppContext, app: FastifyInstance): void {
  const downloads = ctx.services.downloads;

  app.route<{ Params: { storage_namespace: string; study_uid: string } }>({
    method: ['GET', 'POST'],
    url: '/api/v3/storage/study/:storage_namespace/:study_uid/download',
    handler: async (request, reply) => {
      const params = collectParams(request);
      const caller = await authenticate(ctx, request, params);
      const input = parseRequest(storageDownloadRequest, params);
      const { storage_namespace: storage, study_uid: studyUid } = request.params;
      const row = await ctx.services.studyAccess.byStorage(caller, storage, studyUid, {}, input.phiNamespace);
      const targets = [{ row, seriesUids: input.seriesUids }];
      const plan = input.anonymizationId
        ? await downloads.planDeidentified(caller, targets, input.bundle, input.anonymizationId)
        : await downloads.plan(caller, targets, input.bundle);
      return sendArchive(reply, plan);
    },
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/api/v3/study/download',
    handler: async (request, reply) => {
      const params = collectParams(request);
      const caller = await authenticate(ctx, request, params);
      const { uuids, bundle } = parseRequest(studyDownloadRequest, params);
      const targets: DownloadTarget[] = [];
      for (const uuid of uuids) targets.push({ row: await ctx.services.studyAccess.byUuid(caller, uuid) });
      const plan = await downloads.plan(caller, targets, bundle);
      return sendArchive(reply, plan);
    },
  });
}

export function sendArchive(reply: FastifyReply, plan: DownloadPlan): FastifyReply {
  const chunks =
    plan.bundle === 'iso'
      ? isoStream(plan.entries, { volumeId: DICOM_FILE_SET_ID })
      : zipStream(plan.entries);
  // Byte-sized high-water mark: at most ~1 MiB waits in this stream whatever the client's speed.
  const body = Readable.from(chunks, { objectMode: false, highWaterMark: 1 << 20 });
  // A client that goes away must release the open file at once, not at the next write.
  // (the response's close, not the request's: a request closes once its body has been read)
  reply.raw.once('close', () => {
    if (!body.readableEnded) body.destroy();
  });
  if (plan.refused) {
    // What a de-identified download left out, for the web app to say (the archive holds the rest).
    reply.header('x-deidentification-refused-burned-in', String(plan.refused.burnedIn));
    reply.header('x-deidentification-refused-unreadable', String(plan.refused.unreadable));
  }
  return reply
    .header('content-type', plan.bundle === 'iso' ? 'application/x-iso9660-image' : 'application/zip')
    .header('content-length', String(plan.length))
    .header('content-disposition', `attachment; filename="${plan.filename}"`)
    .header('cache-control', 'no-store')
    .send(body);
}
