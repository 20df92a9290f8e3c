import type { BlobReferencesRepository } from '../repositories/blob-references.repository.js';
import type { FileBlobStore } from './file-blob-store.js';

/**
 * Blobs are content-addressed and shared (shared copies, the same file sent to two groups), so a
 * file may go only when no instance references it any more. Ingest failures, stopped shares and
 * the purge all remove files through this one rule.
 */
export class BlobCollector {
  constructor(
    private readonly blobs: FileBlobStore,
    private readonly references: BlobReferencesRepository,
  ) {}

  /** Removes each file no instance references; answers how many went. */
  async removeUnreferenced(keys: Iterable<string>): Promise<number> {
    let removed = 0;
    for (const key of keys) {
      if (await this.references.isReferenced(key)) continue;
      await this.blobs.remove(key);
      removed += 1;
    }
    return removed;
  }
}
