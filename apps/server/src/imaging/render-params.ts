import { THUMBNAIL_DEPTH } from '@imaging-inbox/contract';
import { invalidField, notAcceptable } from '../domain/errors.js';
import type { Window } from './render.js';

export type RenderedType = 'image/png' | 'image/jpeg';
export interface Viewport {
  width: number;
  height: number;
}

const SUPPORTED: RenderedType[] = ['image/png', 'image/jpeg'];

/**
 * The rendered media type from the `accept` query parameter or the Accept header (PS3.18 8.3.3):
 * PNG when anything image-ish or nothing is asked for, JPEG when preferred; else 406.
 */
export function chooseMediaType(
  acceptHeader: string | undefined,
  acceptQuery: string | undefined,
): RenderedType {
  const raw = acceptQuery?.trim() || acceptHeader?.trim() || '*/*';
  const ranges = raw
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const q = params.find((p) => p.startsWith('q='));
      return { type, q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((r) => r.type && r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { type } of ranges) {
    if (type === '*/*' || type === 'image/*') return 'image/png';
    const match = SUPPORTED.find((s) => s === type);
    if (match) return match;
  }
  throw notAcceptable('INVALID_FIELD', 'accept', `rendered media types: ${SUPPORTED.join(', ')}`);
}

/** `viewport=vw,vh[,sx,sy,sw,sh]`: only the size is used (no cropping); each side 1..max. */
export function parseViewport(raw: string | undefined, max: number): Viewport | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const [w, h] = raw.split(',').map((s) => Number(s.trim()));
  const ok = (n: number | undefined): n is number =>
    n !== undefined && Number.isInteger(n) && n >= 1 && n <= max;
  if (!ok(w) || !ok(h)) throw invalidField('viewport', `width,height in pixels, each 1-${max}`);
  return { width: w, height: h };
}

/** `depth` of a thumbnail: only the spec's 8 bits per sample (THUMBNAIL_DEPTH) is drawn. */
export function parseThumbnailDepth(raw: string | undefined): void {
  if (raw === undefined || raw.trim() === '') return;
  if (raw.trim() !== String(THUMBNAIL_DEPTH)) {
    throw invalidField('depth', `thumbnails are ${THUMBNAIL_DEPTH} bits per sample`);
  }
}

/** `window=center,width[,function]` (PS3.18 8.3.5.1.4); only the linear function is applied. */
export function parseWindow(raw: string | undefined): Window | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const [center, width] = raw.split(',').map((s) => Number(s.trim()));
  if (
    center === undefined ||
    width === undefined ||
    !Number.isFinite(center) ||
    !Number.isFinite(width) ||
    width < 1
  ) {
    throw invalidField('window', 'center,width with width at least 1');
  }
  return { center, width };
}

/** `quality=1..100` for JPEG output. */
export function parseQuality(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 85;
  const q = Number(raw);
  if (!Number.isInteger(q) || q < 1 || q > 100) throw invalidField('quality', 'an integer 1-100');
  return q;
}
