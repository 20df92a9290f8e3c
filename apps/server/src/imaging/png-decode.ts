import { convertIndexedToRgb, decode, hasPngSignature } from 'fast-png';

/** Native pixels ready for DICOM's Image Pixel module (little-endian for 16 bits). */
export interface NativeImage {
  rows: number;
  columns: number;
  samplesPerPixel: 1 | 3;
  bitsAllocated: 8 | 16;
  photometric: 'MONOCHROME2' | 'RGB';
  pixels: Uint8Array;
}

export class PngDecodeError extends Error {}

export function isPng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && hasPngSignature(bytes);
}

/** Width and height from the IHDR chunk, read before decoding so a decompression bomb is refused cheaply. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } | null {
  if (!isPng(bytes) || bytes.length < 24) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== 'IHDR') return null;
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/**
 * A PNG of any colour type and depth to DICOM pixels: greyscale stays greyscale (16-bit kept), colour
 * becomes 8-bit RGB, a palette is expanded, and transparency is composited over white (a page or
 * screenshot's natural background) because DICOM pixel data has no alpha.
 */
export function decodePngToNative(bytes: Uint8Array): NativeImage {
  let png;
  try {
    png = decode(bytes);
  } catch (error) {
    throw new PngDecodeError(`unreadable PNG: ${(error as Error).message}`);
  }
  const { width, height } = png;
  const count = width * height;
  if (png.palette) {
    const rgb = convertIndexedToRgb(png);
    const channels = rgb.length / count;
    return colour(width, height, flatten(rgb, channels, 8), 8);
  }
  const samples = unpack(png.data, png.depth, png.channels, width, height);
  const depth = png.depth === 16 ? 16 : 8;
  const flat = flatten(samples, png.channels, depth);
  if (png.channels <= 2) {
    const pixels = depth === 16 ? littleEndian16(flat) : Uint8Array.from(flat);
    return {
      rows: height,
      columns: width,
      samplesPerPixel: 1,
      bitsAllocated: depth,
      photometric: 'MONOCHROME2',
      pixels,
    };
  }
  return colour(width, height, flat, depth);
}

function colour(width: number, height: number, rgb: ArrayLike<number>, depth: 8 | 16): NativeImage {
  const pixels = new Uint8Array(rgb.length);
  const shift = depth === 16 ? 8 : 0;
  for (let i = 0; i < rgb.length; i++) pixels[i] = rgb[i]! >> shift;
  return { rows: height, columns: width, samplesPerPixel: 3, bitsAllocated: 8, photometric: 'RGB', pixels };
}

/** Drops the alpha channel (last of 2 or 4) after compositing over white. */
function flatten(data: ArrayLike<number>, channels: number, depth: 8 | 16): number[] | ArrayLike<number> {
  if (channels !== 2 && channels !== 4) return data;
  const max = depth === 16 ? 65535 : 255;
  const colours = channels - 1;
  const count = data.length / channels;
  const out = new Array<number>(count * colours);
  for (let p = 0; p < count; p++) {
    const alpha = data[p * channels + colours]!;
    for (let c = 0; c < colours; c++) {
      const v = data[p * channels + c]!;
      out[p * colours + c] = Math.round((v * alpha + max * (max - alpha)) / max);
    }
  }
  return out;
}

/** Greyscale of 1, 2 or 4 bits comes packed per row; spread it to 0..255 per sample. */
function unpack(
  data: ArrayLike<number>,
  depth: number,
  channels: number,
  width: number,
  height: number,
): ArrayLike<number> {
  if (depth >= 8) return data;
  const perRow = Math.ceil((width * channels * depth) / 8);
  if (data.length !== perRow * height) {
    // Already one sample per value.
    if (data.length === width * height * channels) return data.length ? scale(data, depth) : data;
    throw new PngDecodeError('unexpected packed PNG layout');
  }
  const out = new Uint8Array(width * height * channels);
  const max = (1 << depth) - 1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width * channels; x++) {
      const bit = x * depth;
      const byte = data[y * perRow + (bit >> 3)]!;
      const value = (byte >> (8 - depth - (bit & 7))) & max;
      out[y * width * channels + x] = Math.round((value * 255) / max);
    }
  }
  return out;
}

function scale(data: ArrayLike<number>, depth: number): Uint8Array {
  const max = (1 << depth) - 1;
  return Uint8Array.from(data, (v) => Math.round((v * 255) / max));
}

function littleEndian16(values: ArrayLike<number>): Uint8Array {
  const out = new Uint8Array(values.length * 2);
  for (let i = 0; i < values.length; i++) {
    out[i * 2] = values[i]! & 0xff;
    out[i * 2 + 1] = values[i]! >> 8;
  }
  return out;
}
