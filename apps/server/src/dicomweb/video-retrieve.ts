import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { notAcceptable } from '../domain/errors.js';
import type { InstanceRow } from '../repositories/dicomweb.repository.js';
import type { BlobStore } from '../storage/blob-store.js';
import { locateVideoStream, parseRange, rangeSegments, type Segment } from './video-stream.js';

/**
 * Whether a `/rendered` request for a video instance may be answered with video/mp4 (PS3.18 8.3.5.1.3:
 * the rendered media types of a multi-frame video include video/mp4). A browser's `<video>` asks `*\/*`.
 */
export function acceptsMp4(acceptHeader: string | undefined, acceptQuery: string | undefined): boolean {
  const raw = acceptQuery?.trim() || acceptHeader?.trim() || '*/*';
  return raw.split(',').some((part) => {
    const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) <= 0) return false;
    return type === '*/*' || type === 'video/*' || type === 'video/mp4';
  });
}

/**
 * Sends the MP4 stored in a video instance's Pixel Data, whole or one byte range (RFC 9110 14), read
 * straight from the stored file: seeking in a long video reads only the part shown. The caller has
 * already checked the study is visible, that video/mp4 is acceptable, and written the audit event.
 */
export async function sendVideo(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  instance: InstanceRow,
): Promise<FastifyReply> {
  const { blobs } = ctx.services;
  const stream = await locateVideoStream(blobs, instance.blob_key);
  if (!stream?.mp4) {
    // An MPEG-2 transport stream or a bare H.264 stream from elsewhere: browsers play neither.
    throw notAcceptable('INVALID_DICOM', 'the video is not stored in an MP4 container');
  }
  reply
    .header('accept-ranges', 'bytes')
    .header('cache-control', 'private, max-age=3600')
    // The stored instance never changes under its key, so its hash names this body.
    .header('etag', `"${instance.sha256}"`)
    .type('video/mp4');
  const range = parseRange(request.headers.range, stream.size);
  if (range === 'unsatisfiable') {
    return reply.code(416).header('content-range', `bytes */${stream.size}`).send();
  }
  const [start, end] = range ?? [0, stream.size - 1];
  if (range) reply.code(206).header('content-range', `bytes ${start}-${end}/${stream.size}`);
  reply.header('content-length', String(end - start + 1));
  if (request.method === 'HEAD') return reply.send();
  return reply.send(Readable.from(readSegments(blobs, instance.blob_key, rangeSegments(stream, start, end))));
}

async function* readSegments(blobs: BlobStore, key: string, segments: Segment[]): AsyncGenerator<Uint8Array> {
  for (const s of segments) {
    if (s.length === 0) continue;
    yield* blobs.readStream(key, { start: s.offset, end: s.offset + s.length - 1 });
  }
}
