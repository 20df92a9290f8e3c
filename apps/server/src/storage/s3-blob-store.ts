import { createReadStream } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Location } from '../config.js';
import type { BlobHandle, BlobStore, ByteRange, TempFile } from './blob-store.js';
import { blobKey } from './blob-store.js';
import { DurableWriter } from './durable-writer.js';
import type { StreamingDigest } from './durable-writer.js';
import { Staging } from './staging.js';

/** Parts of a multipart upload (the helper uploads a smaller body in one PUT). */
const PART_SIZE = 8 * 1024 * 1024;
/** Bytes fetched at least per random-access read (BlobHandle). */
const READ_AHEAD = 256 * 1024;

/**
 * The blob store on an S3-compatible object store (BLOB_STORE=s3://bucket[/prefix]), shared by
 * every server process. Keys are the same content keys as the file store's paths, so writing
 * content already stored, by any process at the same moment, rewrites the same bytes: harmless,
 * and it refreshes the object's write time as the file store's utimes does. An object store
 * answers a PUT only once the object is durable, so there is no fsync to add.
 *
 * Bodies are staged in this process's DATA_DIR/tmp as with the file store. The C-STORE fast path
 * still hashes on writer threads, but stores with one PutObject from this thread.
 */
export class S3BlobStore implements BlobStore {
  private readonly client: S3Client;
  private readonly staging: Staging;
  /** Writer threads, used here only for their streaming SHA-256 (they never write files). */
  private readonly digests: DurableWriter;

  constructor(
    dataDir: string,
    private readonly location: S3Location,
  ) {
    this.staging = new Staging(path.join(dataDir, 'tmp'));
    this.digests = new DurableWriter(this.staging.dir);
    this.client = new S3Client({
      region: location.region,
      ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
      ...(location.credentials ? { credentials: location.credentials } : {}),
    });
  }

  private objectKey(key: string): string {
    if (key.includes('..') || key.startsWith('/')) throw new Error('bad blob key');
    return this.location.prefix + key;
  }

  writeTemp(source: Readable | Uint8Array, maxBytes?: number): Promise<TempFile> {
    return this.staging.write(source, maxBytes);
  }

  discard(temp: TempFile): Promise<void> {
    return this.staging.discard(temp);
  }

  clearStaging(): Promise<{ files: number; bytes: number }> {
    return this.staging.clear();
  }

  /** Uploads a staged body under its content key (in parts when large), then drops the temp file. */
  async commit(temp: TempFile, options: { replace?: boolean; suffix?: string } = {}): Promise<string> {
    const key = blobKey(temp.sha256, options.suffix);
    if (temp.bytes) {
      await this.put(key, temp.bytes);
    } else {
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket: this.location.bucket,
          Key: this.objectKey(key),
          Body: createReadStream(temp.path),
          ContentLength: temp.size,
        },
        partSize: PART_SIZE,
        queueSize: 2,
        leavePartsOnError: false,
      });
      await upload.done();
    }
    await this.staging.discard(temp);
    return key;
  }

  async storeBytes(bytes: Uint8Array, sha256: string): Promise<string> {
    const key = blobKey(sha256);
    await this.put(key, bytes);
    return key;
  }

  startDigest(): StreamingDigest {
    return this.digests.startDigest();
  }

  /** The digest from the writer thread, then one PutObject of a copy (the shared memory is pooled). */
  storeDigested(
    digest: StreamingDigest,
    memory: SharedArrayBuffer,
    size: number,
  ): { sha256: Promise<string>; stored: Promise<string> } {
    const sha256 = digest.finish(memory, size);
    const stored = sha256.then((sha) => this.storeBytes(Buffer.from(new Uint8Array(memory, 0, size)), sha));
    return { sha256, stored };
  }

  private async put(key: string, bytes: Uint8Array): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.location.bucket,
        Key: this.objectKey(key),
        Body: bytes,
        ContentLength: bytes.byteLength,
      }),
    );
  }

  /**
   * Scratch objects beside the blobs, named by the caller (resumable upload chunks under
   * `uploads/`): never content-addressed, never listed by writtenSince, so never judged by the
   * collector. Stored whole from memory (an object appears only once complete): a streamed body
   * goes out aws-chunked, which not every S3-compatible server decodes.
   */
  putPart(name: string, bytes: Uint8Array): Promise<void> {
    return this.put(name, bytes);
  }

  async copyPart(from: string, to: string): Promise<void> {
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.location.bucket,
        Key: this.objectKey(to),
        CopySource: `${this.location.bucket}/${this.objectKey(from)}`,
      }),
    );
  }

  /** Scratch objects whose names start with `prefix`, with their sizes and write times. */
  async listParts(prefix: string): Promise<{ name: string; size: number; writtenAt: number }[]> {
    const parts: { name: string; size: number; writtenAt: number }[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.location.bucket,
          Prefix: this.objectKey(prefix),
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        parts.push({
          name: object.Key.slice(this.location.prefix.length),
          size: object.Size ?? 0,
          writtenAt: object.LastModified?.getTime() ?? 0,
        });
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return parts;
  }

  async read(key: string): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.readStream(key)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  /** One GET (ranged when asked), streamed as the consumer reads; stopping early aborts it. */
  async *readStream(key: string, range?: ByteRange): AsyncGenerator<Uint8Array> {
    const body = await this.get(key, range);
    try {
      for await (const chunk of body) yield chunk as Uint8Array;
    } finally {
      body.destroy();
    }
  }

  private async get(key: string, range?: ByteRange): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.location.bucket,
          Key: this.objectKey(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      throw notFoundAsEnoent(error, key);
    }
  }

  /**
   * Random access by ranged GETs. A small read (a fragment's item header while a video's items are
   * walked) fetches the block after it, so the next ones cost no round trip.
   */
  async open(key: string): Promise<BlobHandle> {
    const stat = await this.stat(key);
    if (!stat) throw notFoundAsEnoent(Object.assign(new Error('NotFound'), { name: 'NotFound' }), key);
    const size = stat.size;
    let block: { start: number; bytes: Buffer } | undefined;
    const fetch = async (start: number, end: number) => this.readRange(key, { start, end });
    return {
      size,
      read: async (buffer, offset, length, position) => {
        if (length <= 0 || position >= size) return 0;
        const end = Math.min(size, position + length);
        if (!block || position < block.start || end > block.start + block.bytes.length) {
          if (end - position >= READ_AHEAD) {
            const bytes = await fetch(position, end - 1);
            buffer.set(bytes, offset);
            return bytes.length;
          }
          block = {
            start: position,
            bytes: await fetch(position, Math.min(size, position + READ_AHEAD) - 1),
          };
        }
        const from = position - block.start;
        const bytes = block.bytes.subarray(from, Math.min(block.bytes.length, from + length));
        buffer.set(bytes, offset);
        return bytes.length;
      },
      close: () => Promise.resolve(),
    };
  }

  private async readRange(key: string, range: ByteRange): Promise<Buffer> {
    const chunks: Uint8Array[] = [];
    for await (const chunk of this.readStream(key, range)) chunks.push(chunk);
    return Buffer.concat(chunks);
  }

  async stat(key: string): Promise<{ size: number; writtenAt: number } | undefined> {
    try {
      const head = await this.client.send(
        new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
      );
      return { size: head.ContentLength ?? 0, writtenAt: head.LastModified?.getTime() ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.objectKey(key) }),
    );
  }

  /**
   * Keys of `.dcm` objects written at or after `since`, by listing the bucket (objects carry their
   * write time in whole seconds: one written in the second of `since` counts). `examined` counts
   * the objects listed.
   */
  async writtenSince(since: number): Promise<{ keys: string[]; examined: number }> {
    const keys: string[] = [];
    let examined = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.location.bucket,
          Prefix: this.location.prefix,
          ...(token ? { ContinuationToken: token } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        examined += 1;
        const key = object.Key?.slice(this.location.prefix.length);
        if (!key?.endsWith('.dcm') || !/^[0-9a-f]{2}\/[0-9a-f]{2}\//.test(key)) continue;
        if ((object.LastModified?.getTime() ?? 0) + 1000 <= since) continue;
        keys.push(key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return { keys, examined };
  }

  async check(): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket }));
  }

  async close(): Promise<void> {
    await this.digests.close();
  }
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e.name === 'NotFound' || e.name === 'NoSuchKey' || e.$metadata?.httpStatusCode === 404;
}

/** A missing object fails as a missing file does (ENOENT), which callers already know. */
function notFoundAsEnoent(error: unknown, key: string): unknown {
  if (!isNotFound(error)) return error;
  return Object.assign(new Error(`blob ${key} is not stored`), { code: 'ENOENT' });
}
