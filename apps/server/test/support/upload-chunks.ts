import fs from 'node:fs';
import path from 'node:path';
import { ObjectUploadChunkStore } from '../../src/storage/object-upload-chunk-store.js';
import { S3BlobStore } from '../../src/storage/s3-blob-store.js';
import { UploadChunkStore, type UploadChunks } from '../../src/storage/upload-chunk-store.js';
import type { TestServer } from './test-server.js';

/**
 * What a server's resumable upload sessions hold, read from the chunk store it runs: the file store
 * under DATA_DIR/uploads, or the object store's `uploads/` (TEST_BLOB_STORE=s3, the store several
 * processes share). Upload-session tests assert through this, so they say the same on both.
 */
export interface UploadChunksSeen {
  /** A chunk store of the kind the server runs over the same files or objects: another process's. */
  store: UploadChunks;
  /**
   * The session's bytes as placed, from offset 0 (bytes a refused append left past the held offset
   * included); empty when it holds none.
   */
  held(idHash: string): Promise<Buffer>;
  /** The appends staged and neither placed nor discarded, by session id hash. */
  staged(): Promise<string[]>;
  /** The id hashes of the sessions holding anything, sorted. */
  sessions(): Promise<string[]>;
  /** Leaves what a process that died would: bytes of a session no row knows. */
  plantSession(idHash: string, bytes: Uint8Array): Promise<void>;
  /** Leaves what an append that died mid-body would: its staged bytes, under claim `token`. */
  plantStaged(idHash: string, token: string, bytes: Uint8Array): Promise<void>;
}

export function uploadChunksOf(server: TestServer): UploadChunksSeen {
  const blobs = server.ctx.services.blobs;
  return blobs instanceof S3BlobStore ? objectChunks(blobs) : fileChunks(server.dataDir);
}

function fileChunks(dataDir: string): UploadChunksSeen {
  const store = new UploadChunkStore(dataDir);
  const names = () => fs.readdirSync(store.dir);
  return {
    store,
    held: (idHash) => {
      const file = store.pathOf(idHash);
      return Promise.resolve(fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0));
    },
    staged: () =>
      Promise.resolve(
        names()
          .filter((n) => n.endsWith('.chunk'))
          .map((n) => n.split('.')[0]!),
      ),
    sessions: () =>
      Promise.resolve(
        names()
          .filter((n) => n.endsWith('.part'))
          .map((n) => path.basename(n, '.part'))
          .sort(),
      ),
    plantSession: (idHash, bytes) => Promise.resolve(fs.writeFileSync(store.pathOf(idHash), bytes)),
    plantStaged: (idHash, token, bytes) =>
      Promise.resolve(fs.writeFileSync(store.stagedPathOf(idHash, token), bytes)),
  };
}

/** The object store's layout (object-upload-chunk-store.ts): `uploads/<id hash>/<offset, 16 digits>` or `staged-<claim>`. */
function objectChunks(blobs: S3BlobStore): UploadChunksSeen {
  const parts = async () =>
    (await blobs.listParts('uploads/')).map((part) => {
      const [, idHash, base] = /^uploads\/([0-9a-f]{64})\/(.+)$/.exec(part.name) ?? [];
      return { ...part, idHash: idHash!, base: base! };
    });
  return {
    store: new ObjectUploadChunkStore(blobs),
    async held(idHash) {
      const placed = (await parts())
        .filter((p) => p.idHash === idHash && /^\d{16}$/.test(p.base))
        .map((p) => ({ name: p.name, offset: Number(p.base) }))
        .sort((a, b) => a.offset - b.offset);
      const pieces = await Promise.all(placed.map(async (p) => ({ ...p, bytes: await blobs.read(p.name) })));
      const out = Buffer.alloc(Math.max(0, ...pieces.map((p) => p.offset + p.bytes.length)));
      for (const piece of pieces) piece.bytes.copy(out, piece.offset);
      return out;
    },
    staged: async () => (await parts()).filter((p) => p.base.startsWith('staged-')).map((p) => p.idHash),
    sessions: async () => [...new Set((await parts()).map((p) => p.idHash))].sort(),
    plantSession: (idHash, bytes) => blobs.putPart(`uploads/${idHash}/${'0'.repeat(16)}`, bytes),
    plantStaged: (idHash, token, bytes) => blobs.putPart(`uploads/${idHash}/staged-${token}`, bytes),
  };
}
