import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { TempFile } from './blob-store.js';
import type { S3BlobStore } from './s3-blob-store.js';
import { ChunkLengthError, chunkCounter } from './upload-chunk-store.js';
import type { UploadChunks } from './upload-chunk-store.js';

const OFFSET_DIGITS = 16;
const PLACED = /^\d{16}$/;
const STAGED = /^staged-[0-9a-f]{32}$/;

/**
 * The bytes of resumable uploads on the object store, beside the blobs (`uploads/<id hash>/`), so
 * every process sees every session's chunks and an append or a complete may land on any of them.
 * An append is staged as its own object (`staged-<claim>`), then placed by a server-side copy under
 * its offset (16 digits); the file is the chain of placed chunks from offset 0, each one's size
 * leading to the next. An object appears only once whole, and the copy comes after the claim was
 * checked again, so a stalled append never places half a chunk. A broken append's placed chunk sits
 * at the held offset and is replaced by the next append there.
 */
export class ObjectUploadChunkStore implements UploadChunks {
  constructor(private readonly store: S3BlobStore) {}

  private dir(idHash: string): string {
    if (!/^[0-9a-f]{64}$/.test(idHash)) throw new Error('bad upload session id hash');
    return `uploads/${idHash}/`;
  }

  private staged(idHash: string, token: string): string {
    if (!/^[0-9a-f]{32}$/.test(token)) throw new Error('bad upload claim token');
    return `${this.dir(idHash)}staged-${token}`;
  }

  private placed(idHash: string, offset: number): string {
    return `${this.dir(idHash)}${String(offset).padStart(OFFSET_DIGITS, '0')}`;
  }

  create(): Promise<void> {
    return Promise.resolve();
  }

  /** Stages exactly `length` bytes of `source` in this process's temp area, then uploads them whole. */
  async stage(idHash: string, token: string, length: number, source: Readable): Promise<void> {
    const { counter, written } = chunkCounter(length);
    source.on('error', (error) => counter.destroy(error));
    let temp: TempFile;
    try {
      temp = await this.store.writeTemp(source.pipe(counter));
    } catch (error) {
      if (written() > length) throw new ChunkLengthError();
      throw error;
    }
    try {
      if (temp.size !== length) throw new ChunkLengthError();
      // At most one chunk (MAX_UPLOAD_CHUNK_BYTES) in memory at a time per append.
      await this.store.putPart(this.staged(idHash, token), await readFile(temp.path));
    } finally {
      await this.store.discard(temp);
    }
  }

  async place(idHash: string, token: string, offset: number): Promise<void> {
    await this.store.copyPart(this.staged(idHash, token), this.placed(idHash, offset));
  }

  placeWhole(idHash: string, token: string): Promise<void> {
    return this.place(idHash, token, 0);
  }

  async discardStaged(idHash: string, token: string): Promise<void> {
    await this.store.delete(this.staged(idHash, token));
  }

  /** The placed chunks that make up the first `size` bytes, in order. */
  private async chain(idHash: string, size: number): Promise<{ name: string; size: number }[]> {
    const dir = this.dir(idHash);
    const byOffset = new Map<number, { name: string; size: number }>();
    for (const part of await this.store.listParts(dir)) {
      const base = part.name.slice(dir.length);
      if (PLACED.test(base)) byOffset.set(Number(base), part);
    }
    const chain: { name: string; size: number }[] = [];
    for (let at = 0; at < size;) {
      const part = byOffset.get(at);
      if (!part || part.size === 0) throw new Error(`upload chunk at ${at} of ${idHash} is missing`);
      chain.push(part);
      at += part.size;
    }
    return chain;
  }

  private async *bytes(idHash: string, size: number): AsyncGenerator<Uint8Array> {
    let left = size;
    for (const part of await this.chain(idHash, size)) {
      for await (const chunk of this.store.readStream(part.name)) {
        if (left <= 0) return;
        const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
        left -= piece.length;
        yield piece;
      }
    }
  }

  async sha256(idHash: string, size: number): Promise<string> {
    const hash = createHash('sha256');
    for await (const chunk of this.bytes(idHash, size)) hash.update(chunk);
    return hash.digest('hex');
  }

  /** The file's first `size` bytes, staged in this process (the ingest's input, like an upload's body). */
  async assemble(idHash: string, size: number): Promise<TempFile> {
    const temp = await this.store.writeTemp(Readable.from(this.bytes(idHash, size)));
    if (temp.size !== size) {
      await this.store.discard(temp);
      throw new Error(`upload ${idHash} holds ${temp.size} of ${size} bytes`);
    }
    return temp;
  }

  async remove(idHash: string): Promise<void> {
    for (const part of await this.store.listParts(this.dir(idHash))) await this.store.delete(part.name);
  }

  /**
   * Removes staged chunks last written before `before` (a process died mid-append) and names the
   * sessions all of whose objects are older than that: the caller keeps those a row still knows.
   */
  async sweepStale(before: number): Promise<{ staleIds: string[]; stagedRemoved: number }> {
    const newest = new Map<string, number>();
    let stagedRemoved = 0;
    for (const part of await this.store.listParts('uploads/')) {
      const match = /^uploads\/([0-9a-f]{64})\/(.+)$/.exec(part.name);
      if (!match) continue;
      const [, idHash, base] = match as unknown as [string, string, string];
      if (STAGED.test(base) && part.writtenAt < before) {
        await this.store.delete(part.name);
        stagedRemoved += 1;
        continue;
      }
      newest.set(idHash, Math.max(newest.get(idHash) ?? 0, part.writtenAt));
    }
    const staleIds = [...newest].filter(([, at]) => at < before).map(([idHash]) => idHash);
    return { staleIds, stagedRemoved };
  }
}
