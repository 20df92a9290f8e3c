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
