import { describe, expect, it } from 'vitest';
import { SharedBufferPool } from '../../src/dimse/shared-buffer-pool.js';

describe('SharedBufferPool', () => {
  it('lends released memory to the next dataset of the same size class, at the asked length', () => {
    const pool = new SharedBufferPool(1024, 1 << 20, 2);
    const first = pool.acquire(3000);
    expect(first.byteLength).toBe(3000);
    expect(first.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(first.buffer.byteLength).toBe(4096);
    first.fill(7);
    pool.release(first);
    const second = pool.acquire(2500);
    expect(second.buffer).toBe(first.buffer);
    expect(second.byteLength).toBe(2500);
    // A different size class gets its own memory.
    expect(pool.acquire(5000).buffer).not.toBe(first.buffer);
  });

  it('does not pool small or oversized buffers', () => {
    const pool = new SharedBufferPool(1024, 1 << 20, 2);
    const small = pool.acquire(100);
    expect(small.buffer.byteLength).toBe(100);
    pool.release(small);
    expect(pool.acquire(100).buffer).not.toBe(small.buffer);
    const big = pool.acquire((1 << 20) + 1);
    pool.release(big);
    expect(pool.acquire((1 << 20) + 1).buffer).not.toBe(big.buffer);
  });

  it('never lends one memory twice, and keeps at most perClass free', () => {
    const pool = new SharedBufferPool(1024, 1 << 20, 2);
    const a = pool.acquire(2000);
    pool.release(a);
    pool.release(a);
    const x = pool.acquire(2000);
    const y = pool.acquire(2000);
    expect(x.buffer).toBe(a.buffer);
    expect(y.buffer).not.toBe(a.buffer);

    const held = [pool.acquire(2000), pool.acquire(2000), pool.acquire(2000)];
    for (const bytes of held) pool.release(bytes);
    const again = [pool.acquire(2000), pool.acquire(2000), pool.acquire(2000)].map((b) => b.buffer);
    expect(again.filter((memory) => held.some((b) => b.buffer === memory))).toHaveLength(2);
  });

  it('ignores memory that is not shared or not of a pooled size', () => {
    const pool = new SharedBufferPool(1024, 1 << 20, 2);
    pool.release(Buffer.alloc(4096));
    const odd = Buffer.from(new SharedArrayBuffer(3000));
    pool.release(odd);
    const next = pool.acquire(3000);
    expect(next.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(next.buffer).not.toBe(odd.buffer);
    expect(next.buffer.byteLength).toBe(4096);
  });

  it('takes memory back by its own size class, whatever view of it is released', () => {
    const pool = new SharedBufferPool(1024, 1 << 20, 2);
    const asked = pool.acquire(3000);
    // A dataset that turned out smaller than the memory it was given.
    pool.release(Buffer.from(asked.buffer, 0, 1500));
    expect(pool.acquire(4000).buffer).toBe(asked.buffer);
  });
});
