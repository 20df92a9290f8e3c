import dicomParser from 'dicom-parser';
import type { DataSet } from 'dicom-parser';
import { inflaterFor } from '../dicom/inflate.js';
import { extractFrame, NATIVE_SYNTAXES } from '../dicomweb/frames.js';
import { canDecode, decodeFrame, type PixelLayout } from './codecs.js';

/** One frame's native pixels and the attributes needed to display them. */
export interface ImageFrame extends PixelLayout {
  /** Native, little-endian pixel bytes of the frame. */
  data: Uint8Array;
  frames: number;
  rescaleSlope: number;
  rescaleIntercept: number;
  /** The first VOI window in the file, if any. */
  window?: { center: number; width: number } | undefined;
}

/** A frame in a transfer syntax no codec here decodes. */
export class UnsupportedImageError extends Error {}

function firstNumber(dataSet: DataSet, tag: string): number | undefined {
  const raw = dataSet.string(tag);
  if (!raw) return undefined;
  const value = Number(raw.split('\\')[0]);
  return Number.isFinite(value) ? value : undefined;
}

/** The number of frames in a DICOM file (1 when the attribute is absent). */
export function frameCount(file: Uint8Array, expanded?: Uint8Array): number {
  let dataSet: DataSet;
  try {
    dataSet = dicomParser.parseDicom(file, { untilTag: 'x7fe00010', inflater: inflaterFor(expanded) });
  } catch (error) {
    throw new UnsupportedImageError(`the file cannot be read: ${String(error)}`);
  }
  return Math.max(1, Number(dataSet.string('x00280008') ?? '1') || 1);
}

/** Reads frame `frameNumber` (1-based) of a DICOM file and decodes it to native pixels. */
export async function readFrame(
  file: Buffer,
  frameNumber: number,
  /** The file with its deflated dataset already inflated (`expandDeflated`), if it is deflated. */
  expanded?: Uint8Array,
): Promise<ImageFrame> {
  const bytes = new Uint8Array(file.buffer, file.byteOffset, file.byteLength);
  let dataSet: DataSet;
  try {
    dataSet = dicomParser.parseDicom(bytes, { untilTag: 'x7fe00010', inflater: inflaterFor(expanded) });
  } catch (error) {
    throw new UnsupportedImageError(`the file cannot be read: ${String(error)}`);
  }
  const transferSyntax = dataSet.string('x00020010') ?? '1.2.840.10008.1.2';
  const layout: PixelLayout = {
    width: dataSet.uint16('x00280011') ?? 0,
    height: dataSet.uint16('x00280010') ?? 0,
    bitsAllocated: dataSet.uint16('x00280100') ?? 16,
    bitsStored: dataSet.uint16('x00280101') ?? dataSet.uint16('x00280100') ?? 16,
    samplesPerPixel: dataSet.uint16('x00280002') ?? 1,
    pixelRepresentation: dataSet.uint16('x00280103') ?? 0,
    planarConfiguration: dataSet.uint16('x00280006') ?? 0,
    photometric: (dataSet.string('x00280004') ?? 'MONOCHROME2').trim().toUpperCase(),
  };
  if (!layout.width || !layout.height) throw new UnsupportedImageError('the instance has no image');
  if (![8, 16].includes(layout.bitsAllocated)) {
    throw new UnsupportedImageError(`BitsAllocated ${layout.bitsAllocated} is not rendered`);
  }
  const native = NATIVE_SYNTAXES.has(transferSyntax);
  if (!native && !canDecode(transferSyntax)) {
    throw new UnsupportedImageError(`transfer syntax ${transferSyntax} is not rendered`);
  }
  const raw = extractFrame(file, frameNumber, expanded);
  let data: Uint8Array = new Uint8Array(raw.buffer, raw.byteOffset, raw.byteLength);
  let { photometric, planarConfiguration } = layout;
  // extractFrame already answers native frames little endian (and inflated).
  if (!native) {
    ({ data, photometric, planarConfiguration } = await decodeFrame(transferSyntax, data, layout));
  }
  const expected = (layout.width * layout.height * layout.samplesPerPixel * layout.bitsAllocated) / 8;
  if (data.byteLength < expected)
    throw new UnsupportedImageError('the frame holds fewer pixels than its size');
  const center = firstNumber(dataSet, 'x00281050');
  const width = firstNumber(dataSet, 'x00281051');
  return {
    ...layout,
    photometric,
    planarConfiguration,
    data,
    frames: Math.max(1, Number(dataSet.string('x00280008') ?? '1') || 1),
    rescaleSlope: firstNumber(dataSet, 'x00281053') ?? 1,
    rescaleIntercept: firstNumber(dataSet, 'x00281052') ?? 0,
    window: center !== undefined && width !== undefined && width > 0 ? { center, width } : undefined,
  };
}
