import { DomainError, notAcceptable } from '../domain/errors.js';
import { encodeJpeg } from './codecs.js';
import { frameCount, readFrame, UnsupportedImageError } from './frame-reader.js';
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

/** A stored DICOM file to a PNG or JPEG image; 404 for a missing frame, 406 for what cannot be rendered. */
export async function renderImage(file: Buffer, request: RenderRequest): Promise<Buffer> {
  try {
    const frameNumber = request.frame === 'middle' ? Math.ceil(frameCount(file) / 2) : request.frame;
    const frame = await readFrame(file, frameNumber);
    let raster = renderFrame(frame, { window: request.window });
    if (request.viewport) raster = fitToViewport(raster, request.viewport);
    if (request.type === 'image/jpeg') {
      return await encodeJpeg(raster.data, raster.width, raster.height, raster.channels, request.quality);
    }
    return encodePng(raster);
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof UnsupportedImageError) throw notAcceptable('INVALID_DICOM', error.message);
    if (error instanceof Error && /is not rendered|no decoder/.test(error.message)) {
      throw notAcceptable('INVALID_DICOM', error.message);
    }
    throw error;
  }
}
