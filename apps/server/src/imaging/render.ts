import type { ImageFrame } from './frame-reader.js';

/** 8-bit display pixels: grey (1 channel) or interleaved RGB (3 channels). */
export interface Raster {
  width: number;
  height: number;
  channels: 1 | 3;
  data: Uint8Array;
}

export interface Window {
  center: number;
  width: number;
}

export interface RenderOptions {
  /** Overrides the window from the file (greyscale only). */
  window?: Window | undefined;
}

/**
 * A decoded frame to display pixels. Greyscale: stored values (masked to BitsStored, sign-extended)
 * → Modality LUT (rescale slope/intercept) → linear VOI window (PS3.3 C.11.2.1.2; the override, the
 * file's first window, else the frame's min/max) → MONOCHROME1 inverted. Colour stays colour.
 */
export function renderFrame(frame: ImageFrame, options: RenderOptions = {}): Raster {
  if (frame.samplesPerPixel === 1) return renderGrey(frame, options.window);
  if (frame.samplesPerPixel === 3) return renderColour(frame);
  throw new Error(`SamplesPerPixel ${frame.samplesPerPixel} is not rendered`);
}

/** The frame's stored samples as numbers, masked to BitsStored and sign-extended when signed. */
function storedValues(frame: ImageFrame, count: number): Float32Array {
  const out = new Float32Array(count);
  const { data, bitsAllocated, bitsStored, pixelRepresentation } = frame;
  const bits = Math.min(bitsStored, bitsAllocated);
  const mask = bits >= 32 ? 0xffffffff : (1 << bits) - 1;
  const signBit = 1 << (bits - 1);
  const signed = pixelRepresentation === 1;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  for (let i = 0; i < count; i++) {
    let v = bitsAllocated === 16 ? view.getUint16(i * 2, true) : data[i]!;
    v &= mask;
    if (signed && v & signBit) v -= 1 << bits;
    out[i] = v;
  }
  return out;
}

function renderGrey(frame: ImageFrame, override: Window | undefined): Raster {
  const count = frame.width * frame.height;
  const values = storedValues(frame, count);
  const { rescaleSlope: slope, rescaleIntercept: intercept } = frame;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < count; i++) {
    const v = values[i]! * slope + intercept;
    values[i] = v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const window = override ?? frame.window ?? { center: (min + max) / 2, width: Math.max(1, max - min) };
  const invert = frame.photometric === 'MONOCHROME1';
  const out = new Uint8Array(count);
  const width = Math.max(1, window.width);
  const low = window.center - 0.5 - (width - 1) / 2;
  const high = window.center - 0.5 + (width - 1) / 2;
  const scale = width > 1 ? 255 / (width - 1) : 0;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    let y: number;
    if (v <= low) y = 0;
    else if (v > high) y = 255;
    else y = width > 1 ? (v - low) * scale : 255;
    const byte = Math.round(Math.min(255, Math.max(0, y)));
    out[i] = invert ? 255 - byte : byte;
  }
  return { width: frame.width, height: frame.height, channels: 1, data: out };
}

function renderColour(frame: ImageFrame): Raster {
  const count = frame.width * frame.height;
  const photometric = frame.photometric;
  if (photometric === 'YBR_FULL_422' && frame.planarConfiguration === 0 && frame.bitsAllocated === 8) {
    return ybr422ToRgb(frame);
  }
  const supported = ['RGB', 'YBR_FULL', 'YBR_ICT', 'YBR_RCT'];
  if (!supported.includes(photometric))
    throw new Error(`PhotometricInterpretation ${photometric} is not rendered`);
  const samples = storedValues({ ...frame, pixelRepresentation: 0 }, count * 3);
  // 16-bit colour: keep the top 8 of the stored bits.
  const shift = Math.max(0, Math.min(frame.bitsStored, frame.bitsAllocated) - 8);
  const planar = frame.planarConfiguration === 1;
  const out = new Uint8Array(count * 3);
  for (let i = 0; i < count; i++) {
    for (let c = 0; c < 3; c++) {
      const v = samples[planar ? c * count + i : i * 3 + c]!;
      out[i * 3 + c] = shift ? Math.min(255, Math.floor(v / 2 ** shift)) : v;
    }
  }
  // JPEG 2000's YBR_ICT/YBR_RCT are undone by the codec; native YBR_FULL is converted here.
  if (photometric === 'YBR_FULL') for (let i = 0; i < count; i++) ybrToRgb(out, i * 3, out[i * 3]!);
  return { width: frame.width, height: frame.height, channels: 3, data: out };
}

/** YBR_FULL (PS3.3 C.7.6.3.1.2) to RGB in place at `at`; `y` is the luminance already there. */
function ybrToRgb(out: Uint8Array, at: number, y: number): void {
  const cb = out[at + 1]! - 128;
  const cr = out[at + 2]! - 128;
  out[at] = clamp(y + 1.402 * cr);
  out[at + 1] = clamp(y - 0.344136 * cb - 0.714136 * cr);
  out[at + 2] = clamp(y + 1.772 * cb);
}

/** Native YBR_FULL_422: Y1 Y2 Cb Cr for each pair of pixels. */
function ybr422ToRgb(frame: ImageFrame): Raster {
  const count = frame.width * frame.height;
  const out = new Uint8Array(count * 3);
  const d = frame.data;
  for (let p = 0; p + 1 < count; p += 2) {
    const base = p * 2;
    for (let k = 0; k < 2; k++) {
      out[(p + k) * 3 + 1] = d[base + 2]!;
      out[(p + k) * 3 + 2] = d[base + 3]!;
      ybrToRgb(out, (p + k) * 3, d[base + k]!);
    }
  }
  return { width: frame.width, height: frame.height, channels: 3, data: out };
}

const clamp = (v: number) => Math.round(Math.min(255, Math.max(0, v)));
