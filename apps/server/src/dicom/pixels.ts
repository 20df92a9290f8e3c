/**
 * Synthetic pixel data for demo files. Viewers and thumbnails need real pixels to render; the pattern
 * (a diagonal gradient plus a disc whose size and position follow the instance number) makes every
 * slice of a series visibly different, so scrolling in the viewer shows that the slices are distinct.
 */

/** Geometry of the disc for one slice: it grows and drifts with the instance number, in a 7-slice cycle. */
function disc(rows: number, columns: number, instanceNumber: number): { cx: number; cy: number; r: number } {
  const step = ((instanceNumber % 7) + 7) % 7;
  const size = Math.min(rows, columns);
  return {
    cx: columns / 2 + (step - 3) * size * 0.04,
    cy: rows / 2,
    r: size * (0.12 + step * 0.035),
  };
}

/** 16-bit greyscale, values within 12 bits (0..4095) to match BitsStored = 12. */
export function monochrome16(rows: number, columns: number, instanceNumber: number): Uint16Array {
  const pixels = new Uint16Array(rows * columns);
  const { cx, cy, r } = disc(rows, columns, instanceNumber);
  const span = Math.max(1, rows + columns - 2);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const gradient = Math.round(((x + y) / span) * 1200);
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
      pixels[y * columns + x] = inside ? 1100 + ((instanceNumber * 97) % 900) : gradient;
    }
  }
  return pixels;
}

/** 8-bit RGB, colour-by-pixel (PlanarConfiguration 0), padded to an even length as DICOM requires. */
export function rgb8(rows: number, columns: number, instanceNumber: number): Uint8Array {
  const count = rows * columns;
  const pixels = new Uint8Array(count * 3 + ((count * 3) % 2));
  const { cx, cy, r } = disc(rows, columns, instanceNumber);
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < columns; x++) {
      const i = (y * columns + x) * 3;
      const inside = (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
      const shade = Math.round((y / Math.max(1, rows - 1)) * 160);
      pixels[i] = inside ? 230 : shade;
      pixels[i + 1] = inside ? (instanceNumber * 53) % 256 : shade;
      pixels[i + 2] = inside ? 40 : Math.round((x / Math.max(1, columns - 1)) * 120);
    }
  }
  return pixels;
}
