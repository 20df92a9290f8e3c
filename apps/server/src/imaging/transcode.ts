import dcmjs from 'dcmjs';
import dicomParser from 'dicom-parser';
import { expandDeflated, relabelInflated } from '../dicom/inflate.js';
import { frameCount, readFrame } from './frame-reader.js';

/** Explicit VR Little Endian: the uncompressed syntax every DICOM reader (and the viewer) decodes. */
export const EXPLICIT_LE = '1.2.840.10008.1.2.1';

function storedSyntax(file: Buffer): string {
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  // The meta header only: the data set (possibly deflated) is not read here.
  const meta = dicomParser.readPart10Header(bytes);
  return (meta.string('x00020010') ?? '1.2.840.10008.1.2').trim();
}

/**
 * A Part-10 file rewritten in Explicit VR Little Endian with native pixel data, decoding every
 * frame through the same codecs as `/rendered` (JPEG, JPEG-LS, JPEG 2000, RLE; big endian swapped).
 * A file already in that syntax is returned as it is. Throws `UnsupportedImageError` when a frame
 * cannot be decoded (deflate, 1-bit, unknown codecs).
 */
export async function toExplicitLittleEndian(file: Buffer): Promise<Buffer> {
  if (storedSyntax(file) === EXPLICIT_LE) return file;
  const expanded = await expandDeflated(file, Number.MAX_SAFE_INTEGER);
  const frames = frameCount(file, expanded);
  const decoded: Uint8Array[] = [];
  let first: Awaited<ReturnType<typeof readFrame>> | undefined;
  for (let n = 1; n <= frames; n++) {
    const frame = await readFrame(file, n, expanded);
    first ??= frame;
    decoded.push(frame.data);
  }
  const pixels = Buffer.concat(decoded);
  // Pixel data must have an even length (PS3.5 7.1.1); 8-bit odd-sized frames get one pad byte.
  const padded = pixels.length % 2 ? Buffer.concat([pixels, Buffer.alloc(1)]) : pixels;
  // A deflated dataset is read from the copy inflated above, not inflated again by dcmjs.
  const source = expanded ? relabelInflated(expanded) : file;
  const arrayBuffer = source.buffer.slice(
    source.byteOffset,
    source.byteOffset + source.byteLength,
  ) as ArrayBuffer;
  const dict = dcmjs.data.DicomMessage.readFile(arrayBuffer);
  dict.meta['00020010'] = { vr: 'UI', Value: [EXPLICIT_LE] };
  dict.dict['7FE00010'] = {
    vr: first!.bitsAllocated > 8 ? 'OW' : 'OB',
    Value: [padded.buffer.slice(padded.byteOffset, padded.byteOffset + padded.byteLength)],
  };
  dict.dict['00280004'] = { vr: 'CS', Value: [first!.photometric] };
  if (first!.samplesPerPixel > 1) dict.dict['00280006'] = { vr: 'US', Value: [first!.planarConfiguration] };
  return Buffer.from(dict.write());
}
