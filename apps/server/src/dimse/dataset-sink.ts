import { createHash } from 'node:crypto';
import type { Hash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { FileBlobStore, TempFile } from '../storage/file-blob-store.js';
import { SharedBufferPool } from './shared-buffer-pool.js';

/** Above this many bytes a dataset is streamed to a temp file instead of being held in memory. */
export const STREAM_ABOVE = 8 * 1024 * 1024;

export type ReceivedDataset =
  | {
      kind: 'memory';
      bytes: Buffer;
      sha256: string;
      /** The store is over and nothing reads `bytes` any more: its memory may serve another dataset. */
      release(): void;
    }
  | { kind: 'file'; temp: TempFile };

/** Shared by every association of the process. */
const datasetMemory = new SharedBufferPool(undefined, STREAM_ABOVE);

/**
 * Collects one C-STORE dataset as its PDV fragments arrive, behind its Part-10 header. Fragments are
 * kept as the socket's own buffers and hashed on arrival, so the end costs one concatenation. Past
 * STREAM_ABOVE (multi-frame, whole-body series) the bytes go on to a temp file as they come, with the
 * socket paused while the disk catches up, so memory stays bounded.
 *
 * A complete dataset is gathered into shared memory (pooled): the writer thread that stores it then
 * reads those very bytes, where an ordinary buffer would be copied twice on its way there.
 */
export class DatasetSink {
  private chunks: Buffer[] = [];
  private size = 0;
  private readonly hash: Hash = createHash('sha256');
  private stream: PassThrough | undefined;
  private temp: Promise<TempFile> | undefined;

  constructor(
    private readonly blobs: FileBlobStore,
    header: Buffer,
    private readonly flow: { pause(): void; resume(): void },
  ) {
    this.append(header);
  }

  write(slice: Buffer): void {
    if (this.stream) {
      if (!this.stream.write(slice)) {
        this.flow.pause();
        this.stream.once('drain', () => this.flow.resume());
      }
      return;
    }
    this.append(slice);
    if (this.size > STREAM_ABOVE) {
      this.stream = new PassThrough({ highWaterMark: 1024 * 1024 });
      this.temp = this.blobs.writeTemp(this.stream);
      // Observed by end(); an aborted association must not leave an unhandled rejection behind.
      this.temp.catch(() => undefined);
      for (const chunk of this.chunks) this.stream.write(chunk);
      this.chunks = [];
    }
  }

  /** The dataset is complete. */
  async end(): Promise<ReceivedDataset> {
    if (this.stream && this.temp) {
      this.stream.end();
      return { kind: 'file', temp: await this.temp };
    }
    const bytes = datasetMemory.acquire(this.size);
    let offset = 0;
    for (const chunk of this.chunks) offset += chunk.copy(bytes, offset);
    this.chunks = [];
    return {
      kind: 'memory',
      bytes,
      sha256: this.hash.digest('hex'),
      release: () => datasetMemory.release(bytes),
    };
  }

  /** The association ended before the dataset did: drop what came (writeTemp removes its temp file). */
  destroy(): void {
    this.chunks = [];
    this.stream?.destroy(new Error('association ended before the dataset was complete'));
  }

  private append(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.hash.update(chunk);
  }
}
