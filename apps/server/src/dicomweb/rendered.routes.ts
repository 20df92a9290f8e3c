import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError, notAcceptable } from '../domain/errors.js';
import { VIDEO_TRANSFER_SYNTAXES } from '../dicom/wrap-video.js';
import { collectParams } from '../http/params.js';
import type { RenderRequest } from '../imaging/render-image.js';
import { renderImage } from '../imaging/render-image.js';
import {
  chooseMediaType,
  parseQuality,
  parseThumbnailDepth,
  parseViewport,
  parseWindow,
} from '../imaging/render-params.js';
import { placeholderImage } from '../imaging/placeholder.js';
import { ThumbnailCache } from '../imaging/thumbnail-cache.js';
import type { InstanceRow } from '../repositories/dicomweb.repository.js';
import { dicomwebCaller } from './access.js';
import { requireInstances } from './study-instances.js';
import { parseFrameList } from './frames.js';
import { acceptsMp4, sendVideo } from './video-retrieve.js';

/** Default and largest thumbnail sides, and the largest rendered viewport side, in pixels. */
export const THUMBNAIL_SIZE = 128;
const THUMBNAIL_MAX = 512;
const RENDERED_MAX = 4096;

interface Target {
  study: string;
  series: string;
  instance?: string;
  frames?: string;
}

/** The middle instance of a series by instance number (then SOP Instance UID). */
export function middleInstance<T extends InstanceRow>(instances: T[]): T | undefined {
  return instances[Math.floor((instances.length - 1) / 2)];
}

/**
 * WADO-RS rendered resources (PS3.18 10.4.1.1.3 and .4): `/rendered` of an instance or frame and
 * `/thumbnail` of an instance or series, as PNG (default) or JPEG. Thumbnails are cached on disk.
 */
export function renderedRoutes(ctx: AppContext, app: FastifyInstance): void {
  const cache = new ThumbnailCache(ctx.config.dataDir);

  /** What to draw, from the query; refuses (406, 400) before anything is read or audited. */
  function renderOptions(request: FastifyRequest, target: Target, thumbnail: boolean): RenderRequest {
    const query = collectParams(request);
    const type = chooseMediaType(request.headers.accept, query['accept']);
    const frame = target.frames === undefined ? undefined : parseFrameList(target.frames)[0];
    if (thumbnail) parseThumbnailDepth(query['depth']);
    return thumbnail
      ? {
          frame: 'middle',
          type,
          viewport: parseViewport(query['viewport'], THUMBNAIL_MAX) ?? {
            width: THUMBNAIL_SIZE,
            height: THUMBNAIL_SIZE,
          },
        }
      : {
          frame: frame ?? 1,
          type,
          viewport: parseViewport(query['viewport'], RENDERED_MAX),
          window: parseWindow(query['window']),
          quality: parseQuality(query['quality']),
        };
  }

  async function answer(request: FastifyRequest, reply: FastifyReply, target: Target, thumbnail: boolean) {
    const caller = await dicomwebCaller(ctx, request);
    const query = collectParams(request);
    const { study, instances } = await requireInstances(ctx, caller, target);
    const instance = (target.instance ? instances[0] : middleInstance(instances))!;
    // A video instance is rendered as its MP4 (byte ranges for the browser's player); it has no
    // frame to draw as a picture, so its series thumbnail is a tile on the page, not a URL.
    const video = VIDEO_TRANSFER_SYNTAXES.has(instance.transfer_syntax);
    if (video) {
      if (thumbnail || target.frames !== undefined) {
        throw notAcceptable('INVALID_DICOM', 'a video instance has no rendered frames or thumbnail');
      }
      if (!acceptsMp4(request.headers.accept, query['accept'])) {
        throw notAcceptable('INVALID_FIELD', 'accept', 'a video instance is rendered as video/mp4');
      }
    }
    const options = video ? null : renderOptions(request, target, thumbnail);
    await ctx.services.audit.recordStudyRead(
      caller,
      study,
      thumbnail ? 'wado-rs thumbnail' : video ? 'wado-rs video' : 'wado-rs rendered',
      thumbnail ? 'THUMBNAIL_VIEW' : 'STUDY_VIEW',
    );
    if (!options) return sendVideo(ctx, request, reply, instance);
    const type = options.type;

    let image: Buffer | undefined;
    const cached =
      thumbnail && options.viewport
        ? cache.pathOf(instance.sha256, options.viewport, type === 'image/png' ? 'png' : 'jpg')
        : undefined;
    if (cached) image = await cache.read(cached);
    if (!image) {
      const file = await ctx.services.blobs.read(instance.blob_key);
      try {
        image = await renderImage(file, options);
      } catch (error) {
        // A thumbnail of an instance that cannot be rendered is a placeholder picture, still
        // answered 406 so a client can tell; the full rendering answers the error itself.
        if (!thumbnail || !(error instanceof DomainError) || error.kind !== 'not_acceptable') throw error;
        const placeholder = await placeholderImage(
          options.viewport ?? { width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE },
          type,
        );
        return reply
          .code(406)
          .type(type)
          .header('cache-control', 'no-store')
          .header('x-rendering-error', error.subtype ?? error.errorType)
          .send(placeholder);
      }
      if (cached) await cache.write(cached, image);
    }
    return reply.type(type).header('cache-control', 'private, max-age=3600').send(image);
  }

  type P = Required<Target>;
  const base = '/dicomweb/studies/:study/series/:series';
  app.get<{ Params: Pick<P, 'study' | 'series' | 'instance'> }>(
    `${base}/instances/:instance/rendered`,
    (req, reply) => answer(req, reply, req.params, false),
  );
  app.get<{ Params: P }>(`${base}/instances/:instance/frames/:frames/rendered`, (req, reply) =>
    answer(req, reply, req.params, false),
  );
  app.get<{ Params: Pick<P, 'study' | 'series' | 'instance'> }>(
    `${base}/instances/:instance/thumbnail`,
    (req, reply) => answer(req, reply, req.params, true),
  );
  app.get<{ Params: Pick<P, 'study' | 'series'> }>(`${base}/thumbnail`, (req, reply) =>
    answer(req, reply, req.params, true),
  );
}
