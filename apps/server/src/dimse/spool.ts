import { PassThrough, Writable } from 'node:stream';
import type { FileBlobStore, TempFile } from '../storage/file-blob-store.js';

/** Above this many bytes an instance is streamed to its temp file instead of being held in memory. */
const STREAM_ABOVE = 8 * 1024 * 1024;

/**
 * Collects one received dataset and hands it to `blobs.writeTemp`: small instances (the vast
 * majority) in one buffer, which costs one write and one fsync; large ones (multi-frame, whole-body
 * CT) as a stream, so memory stays bounded. `temp` settles once the file is fsynced.
 */
export class SpoolWritable extends Writable {
  readonly temp: Promise<TempFile>;
  private chunks: Buffer[] = [];
  private size = 0;
  private stream: PassThrough | undefined;
  private finalized = false;
  private settle!: { resolve: (t: TempFile) => void; reject: (e: unknown) => void };

  constructor(
    private readonly blobs: FileBlobStore,
    header: Buffer,
  ) {
    super({ highWaterMark: 1024 * 1024 });
    this.temp = new Promise<TempFile>((resolve, reject) => {
      this.settle = { resolve, reject };
    });
    // Unobserved until the C-STORE handler awaits it; an aborted association must not crash the process.
    this.temp.catch(() => undefined);
    this.chunks.push(header);
    this.size = header.length;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.stream) {
      if (this.stream.write(chunk)) done();
      else this.stream.once('drain', () => done());
      return;
    }
    this.chunks.push(chunk);
    this.size += chunk.length;
    if (this.size > STREAM_ABOVE) {
      this.stream = new PassThrough({ highWaterMark: 1024 * 1024 });
      this.blobs.writeTemp(this.stream).then(this.settle.resolve, this.settle.reject);
      for (const c of this.chunks) this.stream.write(c);
      this.chunks = [];
    }
    done();
  }

  override _final(done: (error?: Error | null) => void): void {
    this.finalized = true;
    if (this.stream) this.stream.end();
    else {
      const bytes = Buffer.concat(this.chunks, this.size);
      this.chunks = [];
      this.blobs.writeTemp(bytes).then(this.settle.resolve, this.settle.reject);
    }
    done();
  }

  override _destroy(error: Error | null, done: (error?: Error | null) => void): void {
    this.chunks = [];
    // After _final the temp promise belongs to writeTemp (which cleans up after itself).
    if (this.finalized) return done(error);
    const reason = error ?? new Error('association closed before the dataset was complete');
    if (this.stream) this.stream.destroy(reason);
    else this.settle.reject(reason);
    done(error);
  }
}
