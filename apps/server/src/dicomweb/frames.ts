import dicomParser from 'dicom-parser';
import { inflaterFor } from '../dicom/inflate.js';
import { invalidField, notFound } from '../domain/errors.js';

const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
const BIG_ENDIAN = '1.2.840.10008.1.2.2';
/** Syntaxes whose pixel data is native (not encapsulated): frames of these go out little endian. */
export const NATIVE_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2',
  EXPLICIT_LITTLE_ENDIAN,
  BIG_ENDIAN,
  '1.2.840.10008.1.2.1.99',
]);

/** Media type of a frame in its stored transfer syntax (PS3.18 table 8.7.3-2). */
const FRAME_TYPES: Record<string, string> = {
  '1.2.840.10008.1.2.4.50': 'image/jpeg',
  '1.2.840.10008.1.2.4.51': 'image/jpeg',
  '1.2.840.10008.1.2.4.57': 'image/jpeg',
  '1.2.840.10008.1.2.4.70': 'image/jpeg',
  '1.2.840.10008.1.2.4.80': 'image/jls',
  '1.2.840.10008.1.2.4.81': 'image/jls',
  '1.2.840.10008.1.2.4.90': 'image/jp2',
  '1.2.840.10008.1.2.4.91': 'image/jp2',
  '1.2.840.10008.1.2.5': 'image/x-dicom-rle',
};

/**
 * The media type of a frame as this server answers it: compressed frames keep their stored syntax;
 * native ones (implicit, explicit, big endian, deflated) are all sent as little-endian bytes, which
 * is what `application/octet-stream` means to clients (PS3.18 8.7.3.3.2).
 */
export function frameContentType(transferSyntax: string): string {
  if (NATIVE_SYNTAXES.has(transferSyntax))
    return `application/octet-stream; transfer-syntax=${EXPLICIT_LITTLE_ENDIAN}`;
  const type = FRAME_TYPES[transferSyntax] ?? 'application/octet-stream';
  return `${type}; transfer-syntax=${transferSyntax}`;
}

/** Frame numbers from the `/frames/{list}` path segment: 1-based, comma separated. */
export function parseFrameList(raw: string): number[] {
  const frames = raw.split(',').map((s) => Number(s.trim()));
  if (!frames.length || frames.some((n) => !Number.isInteger(n) || n < 1)) {
    throw invalidField('frames', 'a comma-separated list of frame numbers from 1');
  }
  return frames;
}

/**
 * The bytes of one frame: the fragments of an encapsulated frame as stored, or a slice of native
 * pixel data in little-endian byte order (big-endian words swapped; a deflated dataset inflated).
 * `expanded` is the file with its deflated dataset already inflated off the main thread
 * (`expandDeflated`), else it is inflated here within the ratio ceiling.
 */
export function extractFrame(file: Buffer, frameNumber: number, expanded?: Uint8Array): Buffer {
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const dataSet = dicomParser.parseDicom(bytes, { inflater: inflaterFor(expanded) });
  const pixelData = dataSet.elements['x7fe00010'];
  if (!pixelData) throw notFound('pixel data');
  const frames = Number(dataSet.string('x00280008') ?? '1') || 1;
  if (frameNumber > frames) throw notFound('frame');
  if (pixelData.encapsulatedPixelData) {
    const fragments = pixelData.fragments ?? [];
    let frame: Uint8Array;
    if ((pixelData.basicOffsetTable?.length ?? 0) > 0) {
      frame = dicomParser.readEncapsulatedImageFrame(dataSet, pixelData, frameNumber - 1);
    } else if (fragments.length === frames) {
      frame = dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, pixelData, frameNumber - 1, 1);
    } else if (frames === 1) {
      frame = dicomParser.readEncapsulatedPixelDataFromFragments(dataSet, pixelData, 0, fragments.length);
    } else {
      const table = dicomParser.createJPEGBasicOffsetTable(dataSet, pixelData);
      frame = dicomParser.readEncapsulatedImageFrame(dataSet, pixelData, frameNumber - 1, table);
    }
    return Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength);
  }
  const rows = dataSet.uint16('x00280010') ?? 0;
  const columns = dataSet.uint16('x00280011') ?? 0;
  const samples = dataSet.uint16('x00280002') ?? 1;
  const bitsAllocated = dataSet.uint16('x00280100') ?? 16;
  const frameBytes =
    bitsAllocated === 1
      ? Math.ceil((rows * columns * samples) / 8)
      : (rows * columns * samples * bitsAllocated) / 8;
  const start = pixelData.dataOffset + frameBytes * (frameNumber - 1);
  if (start + frameBytes > pixelData.dataOffset + pixelData.length) throw notFound('frame');
  // After inflating, offsets point into the parser's new array, not into the file.
  const source = dataSet.byteArray;
  const frame = Buffer.from(source.buffer, source.byteOffset + start, frameBytes);
  const bigEndian = dataSet.string('x00020010')?.trim() === BIG_ENDIAN;
  return bigEndian && bitsAllocated > 8 ? swapWords(frame, bitsAllocated / 8) : frame;
}

/** Reverses the byte order of each `size`-byte word into a new buffer. */
function swapWords(data: Buffer, size: number): Buffer {
  const out = Buffer.allocUnsafe(data.length);
  for (let i = 0; i + size <= data.length; i += size)
    for (let j = 0; j < size; j++) out[i + j] = data[i + size - 1 - j]!;
  return out;
}
