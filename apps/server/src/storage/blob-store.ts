import type { Readable } from 'node:stream';
import type { StreamingDigest } from './durable-writer.js';

/**
 * A body staged in this process before it is stored: written and synced under DATA_DIR/tmp (never
 * shared with other processes), with its SHA-256, which names the blob it becomes.
 */
export interface TempFile {
  path: string;
  sha256: string;
  size: number;
  /** The content, when it was written from memory: spares reading the file back to parse it. */
  bytes?: Uint8Array;
}

export class BodyTooLargeError extends Error {}

/** An inclusive byte range, as HTTP Range names it. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Random access to one stored blob (a video's fragments, found by walking its items). */
export interface BlobHandle {
  size: number;
  /** Reads up to `length` bytes at `position` into `buffer` at `offset`; answers how many were read. */
  read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The key of stored content: its SHA-256, fanned out over two directory levels. `.dcm` for DICOM
 * files; attachments use `.att`, so the two kinds never share a blob.
 */
export function blobKey(sha256: string, suffix = '.dcm'): string {
  return `${sha256.slice(0, 2)}/${sha256.slice(2, 4)}/${sha256}${suffix}`;
}

/**
 * Where stored files live, shared by every server process (BLOB_DIR). Blobs are content-addressed
 * and never change under their key: writing content already stored only refreshes the blob's write
 * time (which the BlobCollector's grace period counts from). Callers name blobs by key and never by
 * path, so the store behind this can be files (FileBlobStore) or an object store.
 *
 * Writing is staging then storing: writeTemp streams a body into this process's temp area while
 * hashing it (the key is known only at its end, and the ingest parses it before keeping it), then
 * commit stores it durably under its key. storeBytes and storeDigested are the C-STORE fast path:
 * bytes in memory, or in shared memory whose digest is finished by a writer thread that then
 * writes them itself, with no hand-back to this thread in between.
 */
export interface BlobStore {
  /** Streams a body into this process's temp area, hashing it; BodyTooLargeError past maxBytes. */
  writeTemp(source: Readable | Uint8Array, maxBytes?: number): Promise<TempFile>;
  /** Drops a staged body (a no-op once it was committed). */
  discard(temp: TempFile): Promise<void>;
  /**
   * Removes every body left staged by an earlier run of this process (a crash mid-upload: none was
   * answered). Call at start, before anything stages; the staging area is this process's own.
   */
  clearStaging(): Promise<{ files: number; bytes: number }>;
  /** Stores a staged body durably under its content key; `replace` rewrites a damaged blob. */
  commit(temp: TempFile, options?: { replace?: boolean; suffix?: string }): Promise<string>;
  /** Stores bytes whose SHA-256 is known durably under their key. */
  storeBytes(bytes: Uint8Array, sha256: string): Promise<string>;
  /** A SHA-256 computed on a writer thread as a dataset lands in shared memory. */
  startDigest(): StreamingDigest;
  /** storeBytes for bytes in shared memory whose digest that writer thread is still finishing. */
  storeDigested(
    digest: StreamingDigest,
    memory: SharedArrayBuffer,
    size: number,
  ): { sha256: Promise<string>; stored: Promise<string> };

  /** The whole blob in memory (a DICOM header to parse, a frame to decode). */
  read(key: string): Promise<Buffer>;
  /** The blob, or one byte range of it, as chunks read when the consumer asks for them. */
  readStream(key: string, range?: ByteRange): AsyncIterable<Uint8Array>;
  /** Random access to the blob; close the handle when done. */
  open(key: string): Promise<BlobHandle>;
  /** The blob's size and last write time, or undefined when it is not stored. */
  stat(key: string): Promise<{ size: number; writtenAt: number } | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes a blob; only the BlobCollector and the recovery scan decide when. */
  delete(key: string): Promise<void>;
  /** Keys of `.dcm` blobs written at or after `since` (the recovery scan after an unclean stop). */
  writtenSince(since: number): Promise<{ keys: string[]; examined: number }>;
  /** Resolves when the store can be written (readiness probe); rejects saying why not. */
  check(): Promise<void>;
  /** Stops background writers (tests and shutdown; a later write starts them again). */
  close(): Promise<void>;
}
