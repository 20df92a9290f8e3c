import { createHash } from 'node:crypto';
import { PassThrough } from 'node:stream';
import type { StreamingDigest } from '../storage/durable-writer.js';
import type { BlobStore, TempFile } from '../storage/blob-store.js';
import { SharedBufferPool } from './shared-buffer-pool.js';

/** Above this many bytes a dataset is streamed to a temp file instead of being held in memory. */
export const STREAM_ABOVE = 8 * 1024 * 1024;
/** Above this many bytes a dataset is copied into shared memory as it arrives and hashed off-thread. */
export const SHARED_ABOVE = 64 * 1024;
/** The hashing thread is handed more bytes once this many have landed since the last hand-over. */
const HASH_STEP = 128 * 1024;

export type ReceivedDataset =
  | {
      kind: 'memory';
      bytes: Buffer;
      /** Still being finished on a writer thread for a large dataset: parse it meanwhile. */
      sha256: Promise<string>;
      /**
       * With end({ storeAhead: true }): the file already being written under its
       * content key (BlobStore.storeDigested), settling with that key.
       */
      stored?: Promise<string>;
      /** The store is over and nothing reads `bytes` any more: its memory may serve another dataset. */
      release(): void;
    }
  | { kind: 'file'; temp: TempFile };

/**
 * Shared by every association of the process. Small datasets' memory is pooled too: a fresh
 * 28 KB SharedArrayBuffer, made and later collected for every instance, cost about 20 µs more per
 * hand-over to a writer thread than a reused one.
 */
const datasetMemory = new SharedBufferPool(4 * 1024, STREAM_ABOVE);

/** A dataset past SHARED_ABOVE: its bytes so far in shared memory, hashed on a writer thread. */
interface Shared {
  /** A view of the whole shared memory (the dataset is its first `size` bytes). */
  memory: Buffer;
  digest: StreamingDigest;
  /** Bytes already handed to the hashing thread. */
  handedOver: number;
}

/**
 * Collects one C-STORE dataset as its PDV fragments arrive, behind its Part-10 header.
 *
 * A small dataset keeps the socket's own buffers and is gathered and hashed once complete (a few
 * tens of microseconds). A larger one (a CT image) is copied into pooled shared memory as it arrives
 * and hashed meanwhile on a writer thread, which later writes those very bytes: receiving a 0.5 MB
 * image is otherwise bound by SHA-256 on the receiving thread, and an ordinary buffer would be
 * copied twice on its way to the writer. Past STREAM_ABOVE (multi-frame, whole-body series) the
 * bytes go on to a temp file as they come, with the socket paused while the disk catches up, so
 * memory stays bounded.
 */
export class DatasetSink {
  private chunks: Buffer[] = [];
  private size = 0;
  private shared: Shared | undefined;
  private stream: PassThrough | undefined;
  private temp: Promise<TempFile> | undefined;

  constructor(
    private readonly blobs: BlobStore,
    header: Buffer,
    private readonly flow: { pause(): void; resume(): void },
    /** The size of the association's previous dataset: a series' images are usually alike. */
    private readonly sizeHint = 0,
  ) {
    this.chunks.push(header);
    this.size = header.length;
  }

  write(slice: Buffer): void {
    // Decided before the slice lands, so shared memory never grows past STREAM_ABOVE.
    if (!this.stream && this.size + slice.length > STREAM_ABOVE) this.streamToFile();
    if (this.stream) {
      this.size += slice.length;
      if (!this.stream.write(slice)) {
        this.flow.pause();
        this.stream.once('drain', () => this.flow.resume());
      }
      return;
    }
    if (this.shared) this.copyIn(this.shared, slice);
    else {
      this.chunks.push(slice);
      this.size += slice.length;
    }
    if (!this.shared && this.size > SHARED_ABOVE) this.moveToSharedMemory();
  }

  /** Bytes received so far of a dataset kept in shared memory (past SHARED_ABOVE); else undefined. */
  get arrived(): Buffer | undefined {
    return this.shared?.memory.subarray(0, this.size);
  }

  /**
   * The dataset is complete. `storeAhead`: its file may be written as soon as its digest is done,
   * before anyone looks at it again (ScpConnection.store says when).
   */
  async end(options: { storeAhead?: boolean } = {}): Promise<ReceivedDataset> {
    if (this.stream && this.temp) {
      this.stream.end();
      return { kind: 'file', temp: await this.temp };
    }
    if (this.shared) {
      const { memory, digest } = this.shared;
      this.shared = undefined;
      const { sha256, stored } = options.storeAhead
        ? this.blobs.storeDigested(digest, sharedMemoryOf(memory), this.size)
        : { sha256: digest.finish(sharedMemoryOf(memory), this.size), stored: undefined };
      return heldDataset(memory.subarray(0, this.size), sha256, stored);
    }
    const bytes = datasetMemory.acquire(this.size);
    let offset = 0;
    for (const chunk of this.chunks) offset += chunk.copy(bytes, offset);
    this.chunks = [];
    const digest = createHash('sha256').update(bytes).digest('hex');
    const stored = options.storeAhead ? this.blobs.storeBytes(bytes, digest) : undefined;
    return heldDataset(bytes, Promise.resolve(digest), stored);
  }

  /** Whether the dataset so far is held as the socket's own buffers (small: not shared, not streamed). */
  get small(): boolean {
    return !this.shared && !this.stream;
  }

  /** The association ended before the dataset did: drop what came (writeTemp removes its temp file). */
  destroy(): void {
    this.chunks = [];
    // Its memory is not given back: the hashing thread may still read it.
    this.shared?.digest.drop();
    this.shared = undefined;
    this.stream?.destroy(new Error('association ended before the dataset was complete'));
  }

  private moveToSharedMemory(): void {
    const memory = wholeMemory(
      datasetMemory.acquire(Math.min(Math.max(this.sizeHint, 2 * this.size), STREAM_ABOVE)),
    );
    let offset = 0;
    for (const chunk of this.chunks) offset += chunk.copy(memory, offset);
    this.chunks = [];
    this.shared = { memory, digest: this.blobs.startDigest(), handedOver: 0 };
    this.handOver(this.shared);
  }

  private copyIn(shared: Shared, slice: Buffer): void {
    if (this.size + slice.length > shared.memory.length) {
      // Outgrown (larger than the hint): move to memory twice the size. The old memory is dropped,
      // not pooled: the hashing thread may not have read all of it yet.
      const memory = wholeMemory(
        datasetMemory.acquire(Math.min(2 * (this.size + slice.length), STREAM_ABOVE)),
      );
      shared.memory.copy(memory, 0, 0, this.size);
      shared.memory = memory;
    }
    slice.copy(shared.memory, this.size);
    this.size += slice.length;
    if (this.size - shared.handedOver >= HASH_STEP) this.handOver(shared);
  }

  private handOver(shared: Shared): void {
    shared.digest.advance(sharedMemoryOf(shared.memory), this.size);
    shared.handedOver = this.size;
  }

  private streamToFile(): void {
    const stream = new PassThrough({ highWaterMark: 1024 * 1024 });
    this.stream = stream;
    this.temp = this.blobs.writeTemp(stream);
    // Observed by end(); an aborted association must not leave an unhandled rejection behind.
    this.temp.catch(() => undefined);
    if (this.shared) {
      // writeTemp hashes what it writes; the memory is handed to the stream, not pooled again.
      this.shared.digest.drop();
      stream.write(this.shared.memory.subarray(0, this.size));
      this.shared = undefined;
    }
    for (const chunk of this.chunks) stream.write(chunk);
    this.chunks = [];
  }
}

/**
 * A complete dataset in pooled memory. Its memory goes back to the pool only once the writer
 * threads are done reading it (its digest, its file written ahead).
 */
function heldDataset(
  bytes: Buffer,
  sha256: Promise<string>,
  stored: Promise<string> | undefined,
): ReceivedDataset {
  // Observed by the ingest; a parse failure may come first and leave them unread.
  sha256.catch(() => undefined);
  stored?.catch(() => undefined);
  const done = Promise.allSettled([sha256, stored]);
  const release = () => void done.then(() => datasetMemory.release(bytes));
  return { kind: 'memory', bytes, sha256, ...(stored ? { stored } : {}), release };
}

/** A view of all the memory behind `bytes` (pooled memory is larger than what was asked for). */
function wholeMemory(bytes: Buffer): Buffer {
  return Buffer.from(bytes.buffer, 0, bytes.buffer.byteLength);
}

function sharedMemoryOf(view: Buffer): SharedArrayBuffer {
  return view.buffer as SharedArrayBuffer;
}
