import { createHash } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';

/** The body of an append ended before (or ran past) the length it announced. */
export class ChunkLengthError extends Error {}

/**
 * The bytes of resumable uploads, one file per session under DATA_DIR/uploads named by the
 * session's id hash. Kept beside DATA_DIR/blobs on the same file system, so completing a session
 * is a rename into the blob store, not a copy.
 */
export class UploadChunkStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'uploads');
    fs.mkdirSync(this.dir, { recursive: true });
  }

  pathOf(idHash: string): string {
    if (!/^[0-9a-f]{64}$/.test(idHash)) throw new Error('bad upload session id hash');
    return path.join(this.dir, `${idHash}.part`);
  }

  async create(idHash: string): Promise<void> {
    await (await fsp.open(this.pathOf(idHash), 'w')).close();
  }

  /**
   * Writes exactly `length` bytes of `source` at `offset` and fsyncs them, so a chunk is durable
   * before the session row says it is held. Bytes past the held offset from a broken write are
   * simply overwritten by the next append.
   */
  async writeAt(idHash: string, offset: number, length: number, source: Readable): Promise<void> {
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        written += chunk.length;
        if (written > length) return done(new ChunkLengthError());
        done(null, chunk);
      },
    });
    const out = fs.createWriteStream(this.pathOf(idHash), { flags: 'r+', start: offset });
    await pipeline(source, counter, out);
    if (written !== length) throw new ChunkLengthError();
    const handle = await fsp.open(this.pathOf(idHash), 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  /** SHA-256 of the first `size` bytes: the blob store's content key of the assembled file. */
  async sha256(idHash: string, size: number): Promise<string> {
    const hash = createHash('sha256');
    if (size > 0) {
      await pipeline(fs.createReadStream(this.pathOf(idHash), { start: 0, end: size - 1 }), hash);
    }
    return hash.digest('hex');
  }

  /** Cuts the file to `size`: a broken append may have left bytes past the held offset. */
  async truncate(idHash: string, size: number): Promise<void> {
    await fsp.truncate(this.pathOf(idHash), size);
  }

  async remove(idHash: string): Promise<void> {
    await fsp.rm(this.pathOf(idHash), { force: true });
  }

  /** Temp files last written before `before`, by id hash (the sweeper's orphan check). */
  async staleIds(before: number): Promise<string[]> {
    const names = await fsp.readdir(this.dir);
    const stale: string[] = [];
    for (const name of names) {
      const match = /^([0-9a-f]{64})\.part$/.exec(name);
      if (!match) continue;
      const stat = await fsp.stat(path.join(this.dir, name)).catch(() => null);
      if (stat && stat.mtimeMs < before) stale.push(match[1]!);
    }
    return stale;
  }
}
