/**
 * Reusable shared memory for received datasets. A fresh SharedArrayBuffer of half a megabyte costs
 * about a millisecond (mapped, zero-filled, faulted in page by page, unmapped after a later garbage
 * collection): more than receiving the dataset over loopback. A dataset's memory goes back to the
 * pool once its store is over and lends itself to the next one. Buffers below `minPooled` are
 * made fresh each time.
 */
export class SharedBufferPool {
  private readonly free = new Map<number, SharedArrayBuffer[]>();

  constructor(
    /** Below this many bytes a fresh buffer is made each time. */
    private readonly minPooled = 256 * 1024,
    /** Above this many bytes too (datasets that large are streamed to a file instead). */
    private readonly maxPooled = 8 * 1024 * 1024,
    /** Free buffers kept per size class: about the number of concurrent associations. */
    private readonly perClass = 4,
  ) {}

  /** A buffer of exactly `size` bytes in shared memory, not zero-filled when it is reused. */
  acquire(size: number): Buffer {
    const capacity = this.capacityFor(size);
    if (capacity === undefined) return Buffer.from(new SharedArrayBuffer(size));
    const memory = this.free.get(capacity)?.pop() ?? new SharedArrayBuffer(capacity);
    return Buffer.from(memory, 0, size);
  }

  /**
   * `bytes` (from acquire, or any view of the memory it came in) is read by no one any more: neither
   * this thread nor a writer thread. Its memory goes back by its own size class.
   */
  release(bytes: Buffer): void {
    const memory = bytes.buffer;
    if (!(memory instanceof SharedArrayBuffer) || this.capacityFor(memory.byteLength) !== memory.byteLength)
      return;
    const list = this.free.get(memory.byteLength) ?? [];
    // Released twice, it would be lent to two datasets at once.
    if (list.length >= this.perClass || list.includes(memory)) return;
    list.push(memory);
    this.free.set(memory.byteLength, list);
  }

  /** Pooled sizes come in powers of two; undefined: not pooled. */
  private capacityFor(size: number): number | undefined {
    if (size < this.minPooled || size > this.maxPooled) return undefined;
    return 2 ** Math.ceil(Math.log2(size));
  }
}
