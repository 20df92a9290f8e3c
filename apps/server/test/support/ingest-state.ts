import fs from 'node:fs';
import path from 'node:path';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import type { TestServer } from './test-server.js';

/** Every regular file under `dir`, recursively, as full paths; none when `dir` does not exist. */
export function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The stored blobs: the files under DATA_DIR/blobs, or on an S3 run the bucket's objects other than
 * resumable uploads' chunks (DATA_DIR/blobs stays empty there, so counting it would prove nothing).
 */
async function storedBlobCount(server: TestServer): Promise<number> {
  const blobs = server.ctx.services.blobs;
  if (blobs instanceof S3BlobStore)
    return (await blobs.listParts('')).filter((part) => !part.name.startsWith('uploads/')).length;
  return filesUnder(path.join(server.dataDir, 'blobs')).length;
}

/**
 * What an ingest leaves behind, for "a refused input changes nothing": study and instance rows, the
 * ingest's audit events (CREATE, IMAGE_ADD; study views are audited after the answer and left out),
 * stored files and temp files.
 */
export async function ingestState(server: TestServer) {
  const db = server.ctx.db.kysely;
  const count = async (table: 'studies' | 'instances') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const stored = await db
    .selectFrom('audit_events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('action', 'in', ['CREATE', 'IMAGE_ADD'])
    .executeTakeFirstOrThrow();
  return {
    studies: await count('studies'),
    instances: await count('instances'),
    audit: Number(stored.n),
    blobs: await storedBlobCount(server),
    temps: filesUnder(path.join(server.dataDir, 'tmp')).length,
  };
}
