import type { Raster } from './render.js';

/** The largest size of the image that fits the viewport, keeping its aspect ratio (at least 1×1). */
export function fitSize(width: number, height: number, viewport: { width: number; height: number }) {
  const scale = Math.min(viewport.width / width, viewport.height / height);
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

/**
 * Scales a raster to fit the viewport, keeping its aspect ratio: a box filter (the mean of the
 * source pixels each target pixel covers) when shrinking, nearest neighbour when enlarging.
 */
export function fitToViewport(raster: Raster, viewport: { width: number; height: number }): Raster {
  const { width, height } = fitSize(raster.width, raster.height, viewport);
  if (width === raster.width && height === raster.height) return raster;
  const { channels, data } = raster;
  const out = new Uint8Array(width * height * channels);
  const sx = raster.width / width;
  const sy = raster.height / height;
  const sums = new Float64Array(channels);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor(y * sy);
    const y1 = Math.min(raster.height, Math.max(y0 + 1, Math.floor((y + 1) * sy)));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor(x * sx);
      const x1 = Math.min(raster.width, Math.max(x0 + 1, Math.floor((x + 1) * sx)));
      sums.fill(0);
      for (let yy = y0; yy < y1; yy++) {
        for (let xx = x0; xx < x1; xx++) {
          const at = (yy * raster.width + xx) * channels;
          for (let c = 0; c < channels; c++) sums[c]! += data[at + c]!;
        }
      }
      const n = (y1 - y0) * (x1 - x0);
      const to = (y * width + x) * channels;
      for (let c = 0; c < channels; c++) out[to + c] = Math.round(sums[c]! / n);
    }
  }
  return { width, height, channels, data: out };
}
