import { DomainError, notAcceptable } from '../domain/errors.js';
import { expandDeflated } from '../dicom/inflate.js';
import { encodeJpeg } from './codecs.js';
import { frameCount, readFrame } from './frame-reader.js';
import { encodePng } from './png.js';
import type { Window } from './render.js';
import { renderFrame } from './render.js';
import type { RenderedType, Viewport } from './render-params.js';
import { fitToViewport } from './resize.js';

export interface RenderRequest {
  /** 1-based; 'middle' picks the middle frame of a multi-frame image (thumbnails). */
  frame: number | 'middle';
  type: RenderedType;
  viewport?: Viewport | undefined;
  window?: Window | undefined;
  quality?: number;
}

/**
 * A stored DICOM file to a PNG or JPEG image; 404 for a missing frame, 406 for what cannot be
 * rendered. The file was accepted when it came in, so whatever else fails here (an unreadable
 * dataset, a corrupt frame, a codec that traps or times out on its worker) is this instance's
 * problem: 406 with the reason, never a 500, and no other request is affected.
 */
export async function renderImage(file: Buffer, request: RenderRequest): Promise<Buffer> {
  try {
    // A deflated dataset is inflated once, off the main thread, for all that follows.
    const expanded = await expandDeflated(file, Number.MAX_SAFE_INTEGER);
    const frameNumber =
      request.frame === 'middle' ? Math.ceil(frameCount(file, expanded) / 2) : request.frame;
    const frame = await readFrame(file, frameNumber, expanded);
    let raster = renderFrame(frame, { window: request.window });
    if (request.viewport) raster = fitToViewport(raster, request.viewport);
    if (request.type === 'image/jpeg') {
      return await encodeJpeg(raster.data, raster.width, raster.height, raster.channels, request.quality);
    }
    return encodePng(raster);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw notAcceptable('INVALID_DICOM', describe(error));
  }
}

/** dicom-parser throws strings and `{ exception }` objects as well as Errors. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'exception' in error) return describe(error.exception);
  return 'the image cannot be rendered';
}
