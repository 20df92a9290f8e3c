import type { BlobReferencesRepository } from '../repositories/blob-references.repository.js';
import type { BlobStore } from './blob-store.js';

/** Default of BLOB_GRACE_SECONDS: how long a blob is kept after its last write, referenced or not. */
export const BLOB_GRACE_MS = 10 * 60_000;

const SWEEP_BATCH = 500;

/**
 * Blobs are content-addressed and shared (shared copies, the same file sent to two groups, the same
 * file received again), so a blob may go only when no row references it and nothing wrote it for a
 * grace period. An ingest of content already stored refreshes the blob's write time before it
 * indexes it, so a collector that finds the blob unreferenced (it checks the references first,
 * then the write time) cannot remove it under that ingest's new index row. A blob found
 * unreferenced inside its grace period is noted in `blob_removals` and judged again by sweep() once
 * the period is over. Stopped shares, edits, attachment removals, the purge and failed ingests all
 * go through this one judgement.
 */
export class BlobCollector {
  constructor(
    private readonly blobs: BlobStore,
    private readonly references: BlobReferencesRepository,
    private readonly graceMs = BLOB_GRACE_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** Removes each blob no row references and nothing wrote within the grace period; answers how many went. */
  async removeUnreferenced(keys: Iterable<string>): Promise<number> {
    let removed = 0;
    for (const key of keys) if (await this.judge(key)) removed += 1;
    return removed;
  }

  /** Judges again the blobs whose grace period has ended since they were found unreferenced. */
  async sweep(): Promise<number> {
    let removed = 0;
    for (;;) {
      const due = await this.references.dueRemovals(this.now(), SWEEP_BATCH);
      for (const key of due) if (await this.judge(key)) removed += 1;
      if (due.length < SWEEP_BATCH) return removed;
    }
  }

  /**
   * Gives up a blob the caller has just written for an ingest that then failed or turned out a
   * duplicate. It is judged like any other, not deleted outright: another process may have written
   * the same content (same key) and not yet committed the row that references it, so the blob waits
   * out the grace period and goes with the next sweep if still unreferenced.
   */
  async discardWritten(key: string): Promise<void> {
    await this.judge(key);
  }

  /** Removes the blob if it may go, defers it while it is young; answers whether it went. */
  private async judge(key: string): Promise<boolean> {
    if (await this.references.isReferenced(key)) {
      await this.references.forgetRemoval(key);
      return false;
    }
    // Read after the references: an ingest refreshes the write time before it indexes.
    const stat = await this.blobs.stat(key);
    if (stat && this.graceMs > 0 && stat.writtenAt > this.now() - this.graceMs) {
      await this.references.deferRemoval(key, Math.ceil(stat.writtenAt + this.graceMs));
      return false;
    }
    if (stat) await this.blobs.delete(key);
    await this.references.forgetRemoval(key);
    return stat !== undefined;
  }
}
