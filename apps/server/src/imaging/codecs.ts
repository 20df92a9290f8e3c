import { CodecError, CodecPool } from './codec-pool.js';
import { codestreamSize } from './codestream-size.js';

export { CodecError } from './codec-pool.js';

/** Pixel layout of a frame, as the codecs need it. */
export interface PixelLayout {
  width: number;
  height: number;
  bitsAllocated: number;
  bitsStored: number;
  samplesPerPixel: number;
  pixelRepresentation: number;
  planarConfiguration: number;
  photometric: string;
}

export interface DecodedPixels {
  data: Uint8Array;
  photometric: string;
  planarConfiguration: number;
}

/** Encapsulated transfer syntaxes the WebAssembly codecs of dcmjs-codecs decode (`codec-worker-source.ts`). */
const DECODABLE = new Set([
  '1.2.840.10008.1.2.4.50',
  '1.2.840.10008.1.2.4.51',
  '1.2.840.10008.1.2.4.57',
  '1.2.840.10008.1.2.4.70',
  '1.2.840.10008.1.2.4.80',
  '1.2.840.10008.1.2.4.81',
  '1.2.840.10008.1.2.4.90',
  '1.2.840.10008.1.2.4.91',
  '1.2.840.10008.1.2.4.201',
  '1.2.840.10008.1.2.4.202',
  '1.2.840.10008.1.2.4.203',
  '1.2.840.10008.1.2.5',
]);

/** The most one decoded frame may hold: far above any modality's frame (a 4096² RGB 16-bit is 96 MiB). */
export const MAX_DECODED_BYTES = 256 * 1024 * 1024;

let pool: CodecPool | undefined;

/** The process's codec workers, started on the first compressed frame. */
export function codecPool(): CodecPool {
  pool ??= new CodecPool();
  return pool;
}

export function canDecode(transferSyntax: string): boolean {
  return DECODABLE.has(transferSyntax);
}

/**
 * One encapsulated frame to native pixels on a codec worker; colour JPEG comes back as RGB. Throws
 * CodecError for a frame larger than MAX_DECODED_BYTES, one whose codestream declares a larger
 * picture than the DICOM header, a decoder failure or trap, or a decode past the time limit.
 */
export async function decodeFrame(
  transferSyntax: string,
  encoded: Uint8Array,
  layout: PixelLayout,
): Promise<DecodedPixels> {
  if (!canDecode(transferSyntax)) throw new Error(`no decoder for transfer syntax ${transferSyntax}`);
  const expected =
    layout.width * layout.height * layout.samplesPerPixel * Math.ceil(layout.bitsAllocated / 8);
  if (!(expected > 0) || expected > MAX_DECODED_BYTES) {
    throw new CodecError(`a frame of ${layout.width} × ${layout.height} is not decoded here`);
  }
  const declared = codestreamSize(encoded);
  if (declared && (declared.width > layout.width || declared.height > layout.height)) {
    throw new CodecError(
      `the frame's codestream declares ${declared.width} × ${declared.height}, the image ${layout.width} × ${layout.height}`,
    );
  }
  const copy = encoded.slice(); // its own buffer, moved to the worker
  const answer = await codecPool().run(
    { op: 'decode', syntax: transferSyntax, layout, encoded: copy, maxBytes: expected * 2 },
    [copy.buffer],
  );
  return {
    data: answer.data,
    photometric: answer.photometric ?? layout.photometric,
    planarConfiguration: answer.planarConfiguration ?? layout.planarConfiguration,
  };
}

/** 8-bit grey or interleaved RGB pixels to a baseline JPEG, on a codec worker. */
export async function encodeJpeg(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: 1 | 3,
  quality = 85,
): Promise<Buffer> {
  const copy = pixels.slice();
  const answer = await codecPool().run({ op: 'encodeJpeg', pixels: copy, width, height, channels, quality }, [
    copy.buffer,
  ]);
  const data = answer.data;
  return Buffer.from(data.buffer, data.byteOffset, data.byteLength);
}
