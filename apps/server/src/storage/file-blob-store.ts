import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

export interface TempFile {
  path: string;
  sha256: string;
  size: number;
  /** The content, when it was written from memory: spares reading the file back to parse it. */
  bytes?: Uint8Array;
}

export class BodyTooLargeError extends Error {}

/**
 * DICOM files on disk, content-addressed by SHA-256 under DATA_DIR/blobs. Writes go to a temp file
 * first, are fsynced, then renamed into place, so a crash never leaves a half file under a key.
 */
export class FileBlobStore {
  readonly root: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'blobs');
    this.tmpDir = path.join(dataDir, 'tmp');
    fs.mkdirSync(this.root, { recursive: true });
    fs.mkdirSync(this.tmpDir, { recursive: true });
  }

  static keyFor(sha256: string): string {
    return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}.dcm`;
  }

  pathOf(key: string): string {
    if (key.includes('..')) throw new Error('bad blob key');
    return path.join(this.root, key);
  }

  /** Streams a body to a temp file, hashing as it goes; refuses more than maxBytes. */
  async writeTemp(source: Readable | Uint8Array, maxBytes = Number.MAX_SAFE_INTEGER): Promise<TempFile> {
    const tempPath = path.join(this.tmpDir, `${Date.now()}-${randomBytes(8).toString('hex')}.part`);
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
        await pipeline(source, counter, out);
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

  /** Moves a temp file under its content key. Same content already stored: the temp is dropped. */
  async commit(temp: TempFile): Promise<string> {
    const key = FileBlobStore.keyFor(temp.sha256);
    const target = this.pathOf(key);
    if (fs.existsSync(target)) {
      await fsp.rm(temp.path, { force: true });
      return key;
    }
    await fsp.mkdir(path.dirname(target), { recursive: true });
    await fsp.rename(temp.path, target);
    // fsync the directory so the rename itself survives a power cut.
    const dir = await fsp.open(path.dirname(target), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
    return key;
  }

  async discard(temp: TempFile): Promise<void> {
    await fsp.rm(temp.path, { force: true });
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.pathOf(key), { force: true });
  }

  read(key: string): Promise<Buffer> {
    return fsp.readFile(this.pathOf(key));
  }

  createReadStream(key: string): fs.ReadStream {
    return fs.createReadStream(this.pathOf(key));
  }
}
