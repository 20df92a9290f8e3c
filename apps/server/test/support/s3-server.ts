import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Location } from '../../src/config.js';

export interface TestS3 {
  /** The environment that points a server at the bucket (BLOB_STORE=s3://…). */
  env: Record<string, string>;
  location: S3Location;
  stop(): Promise<void>;
}

/** The little of a Koa middleware (s3rver is a Koa application) that answering HEAD needs. */
type HeadMiddleware = (
  ctx: {
    method: string;
    path: string;
    query: Record<string, unknown>;
    headers: Record<string, string | string[] | undefined>;
    status: number;
  },
  next: () => Promise<void>,
) => Promise<void>;

/** A real S3-compatible server (s3rver) on 127.0.0.1, a free port and a temp dir, with one bucket. */
export async function startTestS3(bucket = 'inbox-blobs'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  // s3rver answers HEAD on a bucket with its GET handler (its router serves HEAD with GET), which
  // lists up to 1,000 objects and reads each one's metadata files: with a few thousand blobs that
  // costs it a few hundred ms of CPU per call, and every /readyz makes that call (haproxy asks each
  // process twice a second). S3 answers it from the bucket's existence: so does this, first, for a
  // request signed with s3rver's key (any other goes on to s3rver, which refuses it).
  const buckets = path.resolve(directory);
  (server as unknown as { middleware: HeadMiddleware[] }).middleware.unshift(async (ctx, next) => {
    const bucket = /^\/([^/]+)\/?$/.exec(ctx.path)?.[1];
    const signed = String(ctx.headers.authorization ?? '').includes('Credential=S3RVER/');
    if (ctx.method !== 'HEAD' || !bucket || !signed || Object.keys(ctx.query).length > 0) return next();
    ctx.status = fs.existsSync(path.join(buckets, path.basename(bucket))) ? 200 : 404;
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver's default credentials.
  const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
  return {
    env: {
      BLOB_STORE: `s3://${bucket}`,
      S3_ENDPOINT: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    },
    location: { bucket, prefix: '', endpoint, region: 'us-east-1', credentials },
    async stop() {
      // Clients keep their sockets alive: close them, or close() waits for them to idle out.
      server.httpServer.closeAllConnections();
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
