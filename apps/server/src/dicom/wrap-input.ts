/**
 * Recognises an uploaded non-DICOM file by its bytes (never by its name or the browser's type) and
 * turns it into what `wrap.ts` writes: the PDF itself, a JPEG kept as it is, or native pixels.
 */
import { WRAP_MAX_PIXELS, type WrapFileKind } from '@imaging-inbox/contract';
import { decodeFrame } from '../imaging/codecs.js';
import { decodePngToNative, isPng, PngDecodeError, pngSize } from '../imaging/png-decode.js';
import { isJpeg, keptJpegEncoding, readJpegInfo } from './jpeg-info.js';
import { isIsoBmff } from './mp4-info.js';
import type { KeptJpeg, NativePixels } from './wrap.js';

export type WrapInputErrorCode =
  'INVALID_FILE_TYPE' | 'INVALID_FILE_CONTENT' | 'FILE_TOO_LARGE' | 'UNSUPPORTED_VIDEO_CODEC';

/** The kinds wrapped in memory; a video (mp4) is read from disk by `inspectVideo`. */
export type InMemoryKind = Exclude<WrapFileKind, 'mp4'>;

export class WrapInputError extends Error {
  constructor(
    readonly code: WrapInputErrorCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

export type WrapContent =
  { kind: 'pdf'; pdf: Uint8Array } | { kind: 'jpeg' | 'png'; image: KeptJpeg | NativePixels };

const PDF_MAGIC = '%PDF-';

/** The kind of file, or null for anything else (DICOM included: that goes through the DICOM upload). */
export function sniffKind(bytes: Uint8Array): WrapFileKind | null {
  if (isPdf(bytes)) return 'pdf';
  if (isJpeg(bytes)) return 'jpeg';
  if (isPng(bytes)) return 'png';
  if (isIsoBmff(bytes)) return 'mp4';
  return null;
}

/** PDF readers accept the header anywhere in the first 1024 bytes (ISO 32000-1 annex H.3). */
function isPdf(bytes: Uint8Array): boolean {
  return latin1(bytes.subarray(0, 1024)).includes(PDF_MAGIC);
}

function latin1(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

/** Cheap checks that need no decoding; run on every file of a call before anything is written. */
export function checkWrapInput(bytes: Uint8Array): InMemoryKind {
  if (bytes.length === 0) throw new WrapInputError('INVALID_FILE_CONTENT', 'empty file');
  const kind = sniffKind(bytes);
  if (!kind) throw new WrapInputError('INVALID_FILE_TYPE', 'not a PDF, JPEG, PNG or MP4 file');
  if (kind === 'mp4') throw new Error('an MP4 file is checked by inspectVideo, from disk');
  if (kind === 'pdf') {
    // A complete PDF ends with %%EOF (give or take trailing whitespace); a cut-off upload does not.
    if (!latin1(bytes.subarray(Math.max(0, bytes.length - 1024))).includes('%%EOF')) {
      throw new WrapInputError('INVALID_FILE_CONTENT', 'PDF has no end-of-file marker');
    }
  } else if (kind === 'jpeg') {
    const info = readJpegInfo(bytes);
    if (!info || info.rows === 0 || info.columns === 0) {
      throw new WrapInputError('INVALID_FILE_CONTENT', 'JPEG has no readable frame header');
    }
    if (info.components !== 1 && info.components !== 3) {
      throw new WrapInputError('INVALID_FILE_CONTENT', `JPEG with ${info.components} colour components`);
    }
    if (info.rows * info.columns > WRAP_MAX_PIXELS)
      throw new WrapInputError('FILE_TOO_LARGE', 'too many pixels');
  } else {
    const size = pngSize(bytes);
    if (!size || size.width === 0 || size.height === 0) {
      throw new WrapInputError('INVALID_FILE_CONTENT', 'PNG has no readable header');
    }
    if (size.width > 65535 || size.height > 65535 || size.width * size.height > WRAP_MAX_PIXELS) {
      throw new WrapInputError('FILE_TOO_LARGE', 'too many pixels');
    }
  }
  return kind;
}

/** The content to write for a file `checkWrapInput` accepted; decodes what cannot be kept as it is. */
export async function prepareWrapContent(bytes: Uint8Array, kind: InMemoryKind): Promise<WrapContent> {
  if (kind === 'pdf') return { kind, pdf: bytes };
  if (kind === 'png') {
    try {
      return { kind, image: { kind: 'native', ...decodePngToNative(bytes) } };
    } catch (error) {
      if (error instanceof PngDecodeError) throw new WrapInputError('INVALID_FILE_CONTENT', error.message);
      throw error;
    }
  }
  const info = readJpegInfo(bytes)!;
  const kept = keptJpegEncoding(info);
  if (kept) {
    return { kind, image: { kind: 'jpeg', bytes, rows: info.rows, columns: info.columns, ...kept } };
  }
  // Progressive, unsubsampled colour and other processes: libjpeg-turbo decodes them to 8-bit pixels.
  const samples = info.components === 1 ? 1 : 3;
  let decoded;
  try {
    decoded = await decodeFrame('1.2.840.10008.1.2.4.50', bytes, {
      width: info.columns,
      height: info.rows,
      bitsAllocated: 8,
      bitsStored: 8,
      samplesPerPixel: samples,
      pixelRepresentation: 0,
      planarConfiguration: 0,
      photometric: samples === 1 ? 'MONOCHROME2' : info.adobeTransform === 0 ? 'RGB' : 'YBR_FULL',
    });
  } catch (error) {
    throw new WrapInputError(
      'INVALID_FILE_CONTENT',
      `JPEG could not be decoded: ${(error as Error).message}`,
    );
  }
  if (decoded.data.length !== info.rows * info.columns * samples) {
    throw new WrapInputError('INVALID_FILE_CONTENT', 'JPEG decoded to an unexpected size');
  }
  return {
    kind,
    image: {
      kind: 'native',
      pixels: decoded.data,
      rows: info.rows,
      columns: info.columns,
      samplesPerPixel: samples,
      bitsAllocated: 8,
      photometric: samples === 1 ? 'MONOCHROME2' : 'RGB',
    },
  };
}
