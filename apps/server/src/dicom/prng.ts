/**
 * mulberry32: a tiny, fast 32-bit seeded PRNG. Demo and benchmark data must be reproducible from a seed
 * (the same seed gives the same million studies on every machine), which Math.random cannot give.
 * Not for anything security-related; UIDs for real data come from newUid() (crypto).
 *
 * A class rather than a closure: tsx/esbuild wrap every created closure with a naming helper, which
 * made a million-study benchmark several times slower.
 */
export class Prng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('Prng.pick: empty list');
    return item;
  }

  /** 128 random bits as a bigint, from four 32-bit draws. */
  bits128(): bigint {
    let value = 0n;
    for (let i = 0; i < 4; i++) value = (value << 32n) | BigInt(Math.floor(this.next() * 4294967296));
    return value;
  }
}
