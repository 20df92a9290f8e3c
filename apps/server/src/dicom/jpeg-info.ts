/**
 * Reads what a JPEG says about itself (ITU T.81 markers) without decoding it: the coding process of
 * its start-of-frame marker, size, components and sampling, and whether an Adobe APP14 marker says
 * the three components are RGB rather than YCbCr. The wrapper uses it to decide whether the bytes can
 * be kept as they are (JPEG Baseline / Extended transfer syntax) and which photometric
 * interpretation describes them (PS3.5 section 8.2.1).
 */
export interface JpegInfo {
  /** 0 baseline, 1 extended sequential, 2 progressive, 3 lossless, … (the n of SOFn). */
  process: number;
  precision: number;
  rows: number;
  columns: number;
  components: number;
  /** Horizontal × vertical sampling factor of each component, e.g. [0x22, 0x11, 0x11] for 4:2:0. */
  sampling: number[];
  /** Adobe APP14 transform flag (0: no transform, i.e. RGB for three components), or null without APP14. */
  adobeTransform: number | null;
}

const SOF_MARKERS = new Map<number, number>([
  [0xc0, 0],
  [0xc1, 1],
  [0xc2, 2],
  [0xc3, 3],
  [0xc5, 5],
  [0xc6, 6],
  [0xc7, 7],
  [0xc9, 9],
  [0xca, 10],
  [0xcb, 11],
  [0xcd, 13],
  [0xce, 14],
  [0xcf, 15],
]);

export function isJpeg(bytes: Uint8Array): boolean {
  return bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

/** The frame header of a JPEG, or null when the bytes are not a readable JPEG stream. */
export function readJpegInfo(bytes: Uint8Array): JpegInfo | null {
  if (!isJpeg(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let adobeTransform: number | null = null;
  let offset = 2;
  while (offset + 4 <= bytes.length) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1]!;
    // Fill bytes (FF FF …) may precede a marker; standalone markers carry no length.
    if (marker === 0xff) {
      offset += 1;
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      offset += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan before any frame header
    const length = view.getUint16(offset + 2);
    const body = offset + 4;
    if (length < 2 || offset + 2 + length > bytes.length) return null;
    if (marker === 0xee && length >= 14 && ascii(bytes, body, 5) === 'Adobe') {
      adobeTransform = bytes[body + 11]!;
    }
    const process = SOF_MARKERS.get(marker);
    if (process !== undefined) {
      if (length < 8) return null;
      const components = bytes[body + 5]!;
      if (length < 8 + components * 3) return null;
      const sampling: number[] = [];
      for (let i = 0; i < components; i++) sampling.push(bytes[body + 6 + i * 3 + 1]!);
      return {
        process,
        precision: bytes[body]!,
        rows: view.getUint16(body + 1),
        columns: view.getUint16(body + 3),
        components,
        sampling,
        adobeTransform,
      };
    }
    offset += 2 + length;
  }
  return null;
}

function ascii(bytes: Uint8Array, start: number, length: number): string {
  return String.fromCharCode(...bytes.subarray(start, start + length));
}

/**
 * How a kept JPEG is described in DICOM: the transfer syntax of its process and its photometric
 * interpretation, or null when it must be decoded instead (progressive, lossless, arithmetic, 12-bit,
 * CMYK, unsubsampled YCbCr, a height of 0 defined later by DNL).
 */
export function keptJpegEncoding(
  info: JpegInfo,
): { transferSyntax: string; photometric: string; samplesPerPixel: 1 | 3 } | null {
  if (info.rows === 0 || info.columns === 0) return null;
  if (info.components !== 1 && info.components !== 3) return null;
  let transferSyntax: string;
  if (info.process === 0 && info.precision === 8) transferSyntax = '1.2.840.10008.1.2.4.50';
  else if (info.process === 1 && info.precision === 8) transferSyntax = '1.2.840.10008.1.2.4.51';
  else return null;
  if (info.components === 1) return { transferSyntax, photometric: 'MONOCHROME2', samplesPerPixel: 1 };
  // Adobe transform 0 means the components are stored as RGB; otherwise (JFIF) they are YCbCr.
  if (info.adobeTransform === 0) return { transferSyntax, photometric: 'RGB', samplesPerPixel: 3 };
  const [luma, ...chroma] = info.sampling;
  // PS3.5 8.2.1: YBR_FULL_422 for chroma subsampled in either direction. Unsubsampled YCbCr would be
  // YBR_FULL, which the Secondary Capture IOD does not list (dciodvfy refuses it): decode those.
  if (!chroma.some((c) => c !== luma)) return null;
  return { transferSyntax, photometric: 'YBR_FULL_422', samplesPerPixel: 3 };
}
