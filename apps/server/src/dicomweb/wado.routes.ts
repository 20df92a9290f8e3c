import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError, notAcceptable } from '../domain/errors.js';
import { expandDeflated } from '../dicom/inflate.js';
import type { StudyRow } from '../repositories/studies.repository.js';
import { dicomwebBase, dicomwebCaller } from './access.js';
import { requireInstances, type DicomwebInstance, type InstancePath } from './study-instances.js';
import { extractFrame, frameContentType, parseFrameList } from './frames.js';
import { instanceAttributes } from './dicom-json.js';
import { instanceMetadata } from './metadata.js';
import { multipartStream, newBoundary } from './multipart-writer.js';
import { EXPLICIT_LE } from '../imaging/transcode.js';
import { transcodedParts, wantsExplicitLittleEndian } from './transcoded-retrieve.js';

type Instance = DicomwebInstance;
type Target = InstancePath;

/**
 * The frames of a stored file (a deflated dataset inflated off the main thread). The file was
 * accepted when it came in, so one whose frames cannot be read is this instance's 406.
 */
async function framesOf(file: Buffer, frames: number[], contentType: string) {
  try {
    const expanded = await expandDeflated(file, Number.MAX_SAFE_INTEGER);
    return frames.map((n) => ({ contentType, bytes: extractFrame(file, n, expanded) }));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw notAcceptable('INVALID_DICOM', 'the frames of this instance cannot be read');
  }
}

/** WADO-RS: retrieve studies, series, instances, their metadata and frames (PS3.18 section 10.4). */
export function wadoRoutes(ctx: AppContext, app: FastifyInstance): void {
  const instanceUrl = (base: string, study: StudyRow, i: Instance) =>
    `${base}/studies/${study.study_uid}/series/${i.series_uid}/instances/${i.sop_instance_uid}`;

  async function retrieve(request: FastifyRequest, reply: FastifyReply, target: Target) {
    const caller = await dicomwebCaller(ctx, request);
    const { study, instances } = await requireInstances(ctx, caller, target);
    await ctx.services.audit.recordStudyRead(caller, study, 'wado-rs');
    const boundary = newBoundary();
    const base = dicomwebBase(request);
    if (wantsExplicitLittleEndian(request.headers.accept)) {
      const parts = await transcodedParts(ctx, instances, (i) => instanceUrl(base, study, i));
      return reply
        .type(
          `multipart/related; type="application/dicom"; transfer-syntax=${EXPLICIT_LE}; boundary=${boundary}`,
        )
        .send(multipartStream(parts, boundary));
    }
    const parts = instances.map((i) => ({
      contentType: 'application/dicom',
      open: () => ctx.services.blobs.readStream(i.blob_key),
      location: instanceUrl(base, study, i),
    }));
    return reply
      .type(`multipart/related; type="application/dicom"; boundary=${boundary}`)
      .send(multipartStream(parts, boundary));
  }

  async function metadata(request: FastifyRequest, reply: FastifyReply, target: Target) {
    const caller = await dicomwebCaller(ctx, request);
    const { study, instances } = await requireInstances(ctx, caller, target);
    await ctx.services.audit.recordStudyRead(caller, study, 'wado-rs metadata');
    const base = dicomwebBase(request);
    const answer = [];
    for (const i of instances) {
      answer.push(
        await instanceMetadata(
          await ctx.services.blobs.read(i.blob_key),
          instanceUrl(base, study, i),
          instanceAttributes(study, i, base),
        ),
      );
    }
    return reply.type('application/dicom+json').send(answer);
  }

  type P = { study: string; series: string; instance: string; frames: string };
  app.get<{ Params: Pick<P, 'study'> }>('/dicomweb/studies/:study', (req, reply) =>
    retrieve(req, reply, req.params),
  );
  app.get<{ Params: Pick<P, 'study' | 'series'> }>('/dicomweb/studies/:study/series/:series', (req, reply) =>
    retrieve(req, reply, req.params),
  );
  app.get<{ Params: Pick<P, 'study' | 'series' | 'instance'> }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance',
    (req, reply) => retrieve(req, reply, req.params),
  );
  app.get<{ Params: Pick<P, 'study'> }>('/dicomweb/studies/:study/metadata', (req, reply) =>
    metadata(req, reply, req.params),
  );
  app.get<{ Params: Pick<P, 'study' | 'series'> }>(
    '/dicomweb/studies/:study/series/:series/metadata',
    (req, reply) => metadata(req, reply, req.params),
  );
  app.get<{ Params: Pick<P, 'study' | 'series' | 'instance'> }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance/metadata',
    (req, reply) => metadata(req, reply, req.params),
  );

  app.get<{ Params: P }>(
    '/dicomweb/studies/:study/series/:series/instances/:instance/frames/:frames',
    async (request, reply) => {
      const caller = await dicomwebCaller(ctx, request);
      const frames = parseFrameList(request.params.frames);
      const { study, instances } = await requireInstances(ctx, caller, request.params);
      const instance = instances[0]!;
      await ctx.services.audit.recordStudyRead(caller, study, 'wado-rs frames');
      const file = await ctx.services.blobs.read(instance.blob_key);
      const contentType = frameContentType(instance.transfer_syntax);
      const boundary = newBoundary();
      const parts = await framesOf(file, frames, contentType);
      const partType = contentType.split(';')[0] ?? 'application/octet-stream';
      return reply
        .type(`multipart/related; type="${partType}"; boundary=${boundary}`)
        .send(multipartStream(parts, boundary));
    },
  );
}
