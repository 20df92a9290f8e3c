import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { TempFile } from './blob-store.js';
import { BodyTooLargeError } from './blob-store.js';

/**
 * The staging area every blob store shares: bodies written and synced under this process's own
 * `DATA_DIR/tmp` while hashed, since a body's key (its SHA-256) is known only at its end.
 */
export class Staging {
  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true });
  }

  /** Streams a body to a temp file, hashing as it goes; refuses more than maxBytes. */
  async write(source: Readable | Uint8Array, maxBytes = Number.MAX_SAFE_INTEGER): Promise<TempFile> {
    const tempPath = path.join(this.dir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
    const hash = createHash('sha256');
    let size = 0;
    try {
      if (source instanceof Uint8Array) {
        if (source.byteLength > maxBytes) throw new BodyTooLargeError();
        hash.update(source);
        size = source.byteLength;
        const handle = await fsp.open(tempPath, 'w');
        try {
          await handle.writeFile(source);
          await handle.sync();
        } finally {
          await handle.close();
        }
      } else {
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            size += chunk.length;
            if (size > maxBytes) return done(new BodyTooLargeError());
            hash.update(chunk);
            done(null, chunk);
          },
        });
        const out = fs.createWriteStream(tempPath);
        try {
          await pipeline(source, counter, out);
        } catch (error) {
          // pipeline rejects on the first error, possibly before the file's open has finished and
          // its descriptor closed: wait for that, so the removal below is the last word and a body
          // cut off mid-way leaves no temp file behind once write() has rejected.
          if (!out.closed) await once(out, 'close');
          throw error;
        }
        const handle = await fsp.open(tempPath, 'r+');
        try {
          await handle.sync();
        } finally {
          await handle.close();
        }
      }
    } catch (error) {
      await fsp.rm(tempPath, { force: true });
      throw error;
    }
    const bytes = source instanceof Uint8Array ? source : undefined;
    return { path: tempPath, sha256: hash.digest('hex'), size, ...(bytes ? { bytes } : {}) };
  }

  async discard(temp: TempFile): Promise<void> {
    await fsp.rm(temp.path, { force: true });
  }

  /** Removes everything an earlier run of this process left staged. */
  async clear(): Promise<{ files: number; bytes: number }> {
    const cleared = { files: 0, bytes: 0 };
    for (const entry of await fsp.readdir(this.dir, { withFileTypes: true })) {
      const file = path.join(this.dir, entry.name);
      const size = entry.isFile() ? (await fsp.stat(file)).size : 0;
      await fsp.rm(file, { recursive: true, force: true });
      cleared.files += 1;
      cleared.bytes += size;
    }
    return cleared;
  }
}
