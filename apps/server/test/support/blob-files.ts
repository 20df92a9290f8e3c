import fs from 'node:fs';
import path from 'node:path';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import type { TestServer } from './test-server.js';

/**
 * The file of a stored blob of a test server (the file blob store under BLOB_DIR), for tests that
 * inspect or damage stored files; the product itself names blobs by key only.
 */
export function storedFile(server: TestServer, key: string): string {
  return path.join(server.ctx.config.blobDir, key);
}

/** The stored bytes of an instance, read through the server's blob store (whichever it is). */
export async function storedInstanceBytes(server: TestServer, sopInstanceUid: string): Promise<Uint8Array> {
  const row = await server.ctx.db.kysely
    .selectFrom('instances')
    .select('blob_key')
    .where('sop_instance_uid', '=', sopInstanceUid)
    .executeTakeFirstOrThrow();
  return server.ctx.services.blobs.read(row.blob_key);
}

/** Where the test server's file blob store keeps its blobs. */
export function blobRoot(server: TestServer): string {
  return server.ctx.config.blobDir;
}

/** This server process's own temp area (bodies staged before they are stored). */
export function tempRoot(server: TestServer): string {
  return path.join(server.ctx.config.dataDir, 'tmp');
}

/** The keys of every stored DICOM blob, through the server's blob store (whichever it is). */
export async function storedBlobKeys(server: TestServer): Promise<string[]> {
  return (await server.ctx.services.blobs.writtenSince(0)).keys.sort();
}

/**
 * Replaces a stored blob's bytes in place, as a damaged disk or a tampered bucket would (the
 * product never rewrites a content-addressed blob): the file itself, or the object at its key.
 */
export async function overwriteBlob(server: TestServer, key: string, bytes: Uint8Array): Promise<void> {
  const blobs = server.ctx.services.blobs;
  if (blobs instanceof S3BlobStore) await blobs.putPart(key, bytes);
  else fs.writeFileSync(storedFile(server, key), bytes);
}
