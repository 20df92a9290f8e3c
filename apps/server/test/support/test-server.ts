import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/main.js';
import { startServer } from '../../src/main.js';
import { startTestS3 } from './s3-server.js';

export const DEMO_PASSWORD = 'Demo-pass-2024';
export type Dialect = 'sqlite' | 'postgres';
export const DIALECTS: Dialect[] = ['sqlite', 'postgres'];

export interface TestServer extends RunningServer {
  dataDir: string;
  api: ApiClient;
}

export async function createPgDatabase(): Promise<string> {
  const base = inject('pgBaseUrl');
  const name = `inbox_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  return base.replace(/\/postgres$/, `/${name}`);
}

/** A real server on a fresh data dir (and a fresh PostgreSQL database when asked), seeded with the demo world. */
export async function startTestServer(
  dialect: Dialect,
  env: Record<string, string> = {},
  /** Where the server's own log lines go (dropped by default). */
  log: (line: string) => void = () => undefined,
): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-test-'));
  // TEST_BLOB_STORE=s3 runs a suite on an S3-compatible store (a private s3rver per server).
  const s3 = process.env.TEST_BLOB_STORE === 's3' && !env.BLOB_STORE ? await startTestS3() : undefined;
  const config = loadConfig({
    PORT: '0',
    DICOM_PORT: '0',
    DATA_DIR: dataDir,
    DEMO_PASSWORD,
    SEED_STUDIES: '16',
    // PACS Intake's exams placed there directly: the tests nominate, process and reject their own.
    SEED_NOMINATIONS: '0',
    LOG_LEVEL: 'warn',
    // Tests of removal (purge, edits, stopped shares) see an unreferenced file go at once; the grace
    // period that protects a racing identical ingest has its own tests (test/storage/blob-collector.test.ts).
    BLOB_GRACE_SECONDS: '0',
    // 65,536 directories per test server would cost more than the few files a test stores.
    BLOB_DIRECTORIES_AHEAD: '0',
    // The tests' PACS peers (Orthanc, the server's own listener) are reached on 127.0.0.1, which
    // destinations may only reach when the operator allows it.
    DICOM_ALLOWED_HOSTS: '127.0.0.1,::1,localhost',
    ...(dialect === 'postgres' ? { DATABASE_URL: await createPgDatabase() } : {}),
    ...s3?.env,
    ...env,
  });
  const server = await startServer(config, log);
  return {
    ...server,
    dataDir,
    api: new ApiClient(server.url),
    async stop() {
      await server.stop();
      await s3?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** Speaks api/v3 the way browsers and Ambra clients do: form-encoded POSTs, sid in the body. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async call<T = any>(
    pathName: string,
    params: Record<string, string | number> = {},
    sid?: string,
  ): Promise<Answer<T>> {
    const form = new URLSearchParams();
    for (const [k, v] of Object.entries(params)) form.set(k, String(v));
    if (sid) form.set('sid', sid);
    const response = await fetch(`${this.baseUrl}/api/v3/${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    return { status: response.status, body: (await response.json()) as T };
  }

  async get<T = any>(pathName: string, params: Record<string, string | number> = {}): Promise<Answer<T>> {
    const query = new URLSearchParams(
      Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]),
    );
    const response = await fetch(`${this.baseUrl}/api/v3/${pathName}?${query.toString()}`);
    return { status: response.status, body: (await response.json()) as T };
  }

  async login(email: string, password = DEMO_PASSWORD): Promise<string> {
    const { status, body } = await this.call<{ sid: string }>('session/login', { login: email, password });
    if (status !== 200) throw new Error(`login of ${email} failed: ${status} ${JSON.stringify(body)}`);
    return body.sid;
  }

  async groups(sid: string): Promise<{ uuid: string; name: string; namespace_id: string; type: string }[]> {
    const { body } = await this.call('group/list', {}, sid);
    return body.groups;
  }

  /** The namespace id of one of the caller's groups, by name. */
  async namespaceOf(sid: string, groupName: string): Promise<string> {
    const group = (await this.groups(sid)).find((g) => g.name === groupName);
    if (!group) throw new Error(`no group named ${groupName} for this user`);
    return group.namespace_id;
  }

  async upload(
    sid: string,
    namespaceId: string,
    bytes: Uint8Array,
    contentType = 'application/dicom',
  ): Promise<Answer> {
    const response = await fetch(
      `${this.baseUrl}/api/v3/storage/namespace/${namespaceId}/image?sid=${encodeURIComponent(sid)}`,
      {
        method: 'POST',
        headers: { 'content-type': contentType },
        body: bytes,
      },
    );
    return { status: response.status, body: await response.json() };
  }
}
