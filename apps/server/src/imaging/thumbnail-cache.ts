import { randomBytes } from 'node:crypto';
import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Rendered thumbnails on disk under DATA_DIR/thumbnails, named by the content hash of the instance
 * they show plus size and type (`<sha256>-<w>x<h>.png`): a stored file never changes, so an entry never
 * goes stale. Written to a temp name and renamed, so a reader never sees half a file.
 */
export class ThumbnailCache {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'thumbnails');
  }

  pathOf(sha256: string, size: { width: number; height: number }, extension: 'png' | 'jpg'): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('bad thumbnail key');
    return path.join(this.root, `${sha256}-${size.width}x${size.height}.${extension}`);
  }

  async read(file: string): Promise<Buffer | undefined> {
    try {
      return await fsp.readFile(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async write(file: string, bytes: Buffer): Promise<void> {
    await fsp.mkdir(this.root, { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.part`;
    try {
      await fsp.writeFile(temp, bytes);
      await fsp.rename(temp, file);
    } catch (error) {
      await fsp.rm(temp, { force: true });
      throw error;
    }
  }
}
