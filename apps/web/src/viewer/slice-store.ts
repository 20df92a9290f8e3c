import type { InstanceInfo, ViewerDicomweb } from './dicomweb';
import { decodeSlice, type DecodedSlice } from './slice';

/**
 * The instances of one series, fetched on demand: the one on screen first, then its neighbours
 * (nearest first, a few at a time), keeping at most `limit` decoded slices in memory. Nothing
 * loads the whole series up front.
 */
export class SliceStore {
  private readonly cache = new Map<number, Promise<DecodedSlice>>();
  private queue: number[] = [];
  private inFlight = 0;
  private readonly abort = new AbortController();

  constructor(
    private readonly client: ViewerDicomweb,
    private readonly seriesUid: string,
    readonly instances: InstanceInfo[],
    private readonly limit = 64,
    private readonly concurrency = 4,
  ) {}

  get length(): number {
    return this.instances.length;
  }

  /** The decoded slice at position `i` (loading it now if needed). */
  get(i: number): Promise<DecodedSlice> {
    let slice = this.cache.get(i);
    if (!slice) {
      slice = this.load(i);
      this.cache.set(i, slice);
    } else {
      // Most recently used last, so eviction drops the slices furthest back in time.
      this.cache.delete(i);
      this.cache.set(i, slice);
    }
    this.evict(i);
    return slice;
  }

  has(i: number): boolean {
    return this.cache.has(i);
  }

  /** Queues the neighbours of `center` within `radius`, nearest first, replacing older requests. */
  prefetch(center: number, radius = 8): void {
    const wanted: number[] = [];
    for (let d = 1; d <= radius; d++) {
      for (const i of [center + d, center - d]) {
        if (i >= 0 && i < this.length && !this.cache.has(i)) wanted.push(i);
      }
    }
    this.queue = wanted;
    this.pump();
  }

  dispose(): void {
    this.abort.abort();
    this.queue = [];
    this.cache.clear();
  }

  private pump(): void {
    while (this.inFlight < this.concurrency && this.queue.length) {
      const next = this.queue.shift()!;
      if (this.cache.has(next)) continue;
      this.inFlight += 1;
      this.get(next)
        .catch(() => undefined)
        .finally(() => {
          this.inFlight -= 1;
          this.pump();
        });
    }
  }

  private async load(i: number): Promise<DecodedSlice> {
    const instance = this.instances[i]!;
    try {
      return decodeSlice(await this.client.instance(this.seriesUid, instance.sopUid, this.abort.signal));
    } catch (error) {
      this.cache.delete(i);
      throw error;
    }
  }

  private evict(keep: number): void {
    for (const key of this.cache.keys()) {
      if (this.cache.size <= this.limit) break;
      if (key !== keep) this.cache.delete(key);
    }
  }
}
