import dicomParser from 'dicom-parser';
import { invalidField, notFound } from '../http/errors.js';

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

export function frameContentType(transferSyntax: string): string {
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
 * The bytes of one frame exactly as stored: a slice of native pixel data, or the fragments of an
 * encapsulated frame.
 */
export function extractFrame(file: Buffer, frameNumber: number): Buffer {
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  const dataSet = dicomParser.parseDicom(bytes);
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
  return Buffer.from(file.buffer, file.byteOffset + start, frameBytes);
}
