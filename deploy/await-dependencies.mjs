// Run by the image before the server: waits until PostgreSQL (DATABASE_URL) accepts a connection
// and the bucket (BLOB_STORE=s3://…) answers, so processes started together with their database
// and object store (deploy/compose.yaml) start once, in order, whatever the orchestrator waits for.
// With S3_CREATE_BUCKET=1 a missing bucket is created (a store started empty beside the cluster);
// otherwise a missing bucket stops the start with its name. Embedded (SQLite, files): nothing to wait for.
import pg from 'pg';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';

const WAIT_MS = Number(process.env.DEPENDENCIES_WAIT_SECONDS ?? 120) * 1000;
const deadline = Date.now() + WAIT_MS;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, attempt) {
  let last;
  while (Date.now() < deadline) {
    try {
      return await attempt();
    } catch (error) {
      if (error?.fatal) throw error;
      if (String(error) !== String(last)) console.log(`Waiting for ${what}: ${error.message ?? error}`);
      last = error;
      await sleep(1000);
    }
  }
  throw new Error(`${what} did not answer within ${WAIT_MS / 1000} s: ${last?.message ?? last}`);
}

async function database(url) {
  await until('PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
    } finally {
      await client.end().catch(() => {});
    }
  });
}

async function bucket(store) {
  const name = store.slice('s3://'.length).split('/')[0];
  const endpoint = process.env.S3_ENDPOINT;
  const keys = process.env.AWS_ACCESS_KEY_ID;
  const s3 = new S3Client({
    region: process.env.AWS_REGION ?? 'us-east-1',
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    ...(keys
      ? { credentials: { accessKeyId: keys, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? '' } }
      : {}),
  });
  await until(`the bucket ${name}`, async () => {
    try {
      await s3.send(new HeadBucketCommand({ Bucket: name }));
    } catch (error) {
      if (error?.$metadata?.httpStatusCode !== 404) throw error;
      if (process.env.S3_CREATE_BUCKET !== '1')
        throw Object.assign(new Error(`the bucket ${name} does not exist (S3_CREATE_BUCKET=1 creates it)`), {
          fatal: true,
        });
      try {
        await s3.send(new CreateBucketCommand({ Bucket: name }));
        console.log(`Created the bucket ${name}`);
      } catch (creating) {
        // Another process of the cluster created it first.
        if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(creating?.name)) throw creating;
      }
    }
  });
  s3.destroy();
}

try {
  if (process.env.DATABASE_URL) await database(process.env.DATABASE_URL);
  if (process.env.BLOB_STORE?.startsWith('s3://')) await bucket(process.env.BLOB_STORE);
} catch (error) {
  console.error(error.message ?? error);
  process.exit(1);
}
