import { encodeJpeg } from './codecs.js';
import { encodePng } from './png.js';
import type { RenderedType, Viewport } from './render-params.js';

/**
 * The picture a thumbnail shows for an instance that cannot be rendered (a corrupt frame, an
 * unsupported layout): a grey tile crossed by a darker X, so a Summary or viewer strip keeps its
 * layout and says "nothing to show" instead of a broken image. Made once per size and type.
 */
const made = new Map<string, Promise<Buffer>>();

export function placeholderImage(viewport: Viewport, type: RenderedType): Promise<Buffer> {
  const key = `${viewport.width}x${viewport.height}:${type}`;
  let image = made.get(key);
  if (!image) {
    image = draw(viewport, type);
    image.catch(() => made.delete(key));
    made.set(key, image);
  }
  return image;
}

async function draw({ width, height }: Viewport, type: RenderedType): Promise<Buffer> {
  const data = new Uint8Array(width * height).fill(0xc8);
  const thickness = Math.max(1, Math.round(Math.min(width, height) / 32));
  for (let y = 0; y < height; y++) {
    const x = Math.round((y * (width - 1)) / Math.max(1, height - 1));
    for (let t = -thickness; t <= thickness; t++) {
      for (const column of [x + t, width - 1 - x + t]) {
        if (column >= 0 && column < width) data[y * width + column] = 0x80;
      }
    }
  }
  return type === 'image/jpeg'
    ? encodeJpeg(data, width, height, 1, 90)
    : encodePng({ width, height, channels: 1, data });
}
