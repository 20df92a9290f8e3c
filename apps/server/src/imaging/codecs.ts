import dcmjsCodecs from 'dcmjs-codecs';
import type { Context as CodecContext } from 'dcmjs-codecs';

const { Context, NativeCodecs } = dcmjsCodecs;

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

type Decoder = (context: CodecContext) => CodecContext;

/** Encapsulated transfer syntaxes the WebAssembly codecs of dcmjs-codecs decode. */
const DECODERS: Record<string, Decoder> = {
  '1.2.840.10008.1.2.4.50': (c) => NativeCodecs.decodeJpeg(c, { convertColorspaceToRgb: true }),
  '1.2.840.10008.1.2.4.51': (c) => NativeCodecs.decodeJpeg(c, { convertColorspaceToRgb: true }),
  '1.2.840.10008.1.2.4.57': (c) => NativeCodecs.decodeJpeg(c, { convertColorspaceToRgb: true }),
  '1.2.840.10008.1.2.4.70': (c) => NativeCodecs.decodeJpeg(c, { convertColorspaceToRgb: true }),
  '1.2.840.10008.1.2.4.80': (c) => NativeCodecs.decodeJpegLs(c),
  '1.2.840.10008.1.2.4.81': (c) => NativeCodecs.decodeJpegLs(c),
  '1.2.840.10008.1.2.4.90': (c) => NativeCodecs.decodeJpeg2000(c),
  '1.2.840.10008.1.2.4.91': (c) => NativeCodecs.decodeJpeg2000(c),
  '1.2.840.10008.1.2.4.201': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.4.202': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.4.203': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.5': (c) => NativeCodecs.decodeRle(c),
};

let ready: Promise<void> | undefined;

/** Loads the codecs' WebAssembly once per process (about 70 ms), on the first compressed frame. */
export function codecsReady(): Promise<void> {
  ready ??= NativeCodecs.isInitialized() ? Promise.resolve() : NativeCodecs.initializeAsync();
  return ready;
}

export function canDecode(transferSyntax: string): boolean {
  return transferSyntax in DECODERS;
}

/** One encapsulated frame to native pixels; colour JPEG comes back as RGB. */
export async function decodeFrame(
  transferSyntax: string,
  encoded: Uint8Array,
  layout: PixelLayout,
): Promise<DecodedPixels> {
  const decoder = DECODERS[transferSyntax];
  if (!decoder) throw new Error(`no decoder for transfer syntax ${transferSyntax}`);
  await codecsReady();
  const context = new Context({
    width: layout.width,
    height: layout.height,
    bitsAllocated: layout.bitsAllocated,
    bitsStored: layout.bitsStored,
    samplesPerPixel: layout.samplesPerPixel,
    pixelRepresentation: layout.pixelRepresentation,
    planarConfiguration: layout.planarConfiguration,
    photometricInterpretation: layout.photometric,
    encodedBuffer: encoded,
  });
  const decoded = decoder(context);
  const data = decoded.getDecodedBuffer();
  if (!data) throw new Error('the codec returned no pixels');
  return {
    data,
    photometric: decoded.getPhotometricInterpretation() ?? layout.photometric,
    planarConfiguration: decoded.getPlanarConfiguration() ?? layout.planarConfiguration,
  };
}

/** 8-bit grey or interleaved RGB pixels to a baseline JPEG. */
export async function encodeJpeg(
  pixels: Uint8Array,
  width: number,
  height: number,
  channels: 1 | 3,
  quality = 85,
): Promise<Buffer> {
  await codecsReady();
  const context = new Context({
    width,
    height,
    bitsAllocated: 8,
    bitsStored: 8,
    samplesPerPixel: channels,
    pixelRepresentation: 0,
    planarConfiguration: 0,
    photometricInterpretation: channels === 3 ? 'RGB' : 'MONOCHROME2',
    decodedBuffer: pixels,
  });
  const encoded = NativeCodecs.encodeJpeg(context, { lossy: true, quality }).getEncodedBuffer();
  if (!encoded) throw new Error('the JPEG encoder returned nothing');
  return Buffer.from(encoded.buffer, encoded.byteOffset, encoded.byteLength);
}
