import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
export const DEMO_PASSWORD = 'Demo-pass-2024';

export interface RunningServer {
  baseUrl: string;
  /** The server's DATA_DIR (its SQLite file lives there), for tests that move the clock on rows. */
  dataDir: string;
  /** Its DICOM listener's port (127.0.0.1). */
  dicomPort: number;
  pid: number;
  stop: () => Promise<void>;
}

/** A port the OS says is free right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${baseUrl}/api/v3/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer /api/v3/health within ${timeoutMs} ms`);
}

/**
 * Starts the built server (`npm run build` first) on free ports with a fresh DATA_DIR and the demo
 * world, and waits until /api/v3/health answers 200.
 */
export async function startServer(
  extraEnv: Record<string, string> = {},
  /** Flags for node itself (e.g. `--cpu-prof`, which NODE_OPTIONS refuses). */
  nodeArgs: string[] = [],
): Promise<RunningServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'imaging-inbox-e2e-'));
  const [port, dicomPort] = [await freePort(), await freePort()];
  const baseUrl = `http://127.0.0.1:${port}`;
  const log: string[] = [];
  // The flags for node the server is deployed with (apps/server/src/runtime-flags.ts), from the build.
  const { SERVER_NODE_FLAGS } = (await import(path.join(REPO_ROOT, 'apps/server/dist/runtime-flags.js'))) as {
    SERVER_NODE_FLAGS: string[];
  };
  const args = [...SERVER_NODE_FLAGS, ...nodeArgs, path.join(REPO_ROOT, 'apps/server/dist/main.js')];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_PORT: String(dicomPort),
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      SEED_DEMO: '1',
      // PACS Intake's exams placed there directly: the specs nominate and process their own.
      SEED_NOMINATIONS: '0',
      PUBLIC_URL: baseUrl,
      LOG_LEVEL: 'warn',
      // The browser tests read the mails they cause at /dev/outbox.
      DEV_OUTBOX: '1',
      // 65,536 blob directories (256 MB of ext4 blocks) per server would outweigh what a test stores.
      BLOB_DIRECTORIES_AHEAD: '0',
      // The demo's PACS Archive and the tests' PACS peers listen on this machine, as with npm start.
      DICOM_ALLOWED_HOSTS: '127.0.0.1',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    log.push(chunk.toString());
    if (log.length > 200) log.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForHealth(baseUrl, child, 90_000);
  } catch (error) {
    child.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n--- server output ---\n${log.join('')}`, { cause: error });
  }
  const pid = child.pid ?? -1;
  return {
    baseUrl,
    dataDir,
    dicomPort,
    pid,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        process.kill(pid, 'SIGTERM');
        const timer = setTimeout(() => child.exitCode === null && process.kill(pid, 'SIGKILL'), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server of the calling spec file alone, started before its tests and stopped after them: for a
 * spec that reads the demo world as seeded, which specs run before it on the shared server change
 * (exams nominated, uploaded or sent; English typed as data). Read `baseUrl` inside tests and hooks.
 */
export function ownServer(env: Record<string, string> = {}): { baseUrl: string } {
  const own = { baseUrl: '' };
  let server: RunningServer | undefined;
  beforeAll(async () => {
    server = await startServer(env);
    own.baseUrl = server.baseUrl;
  }, 120_000);
  afterAll(() => server?.stop());
  return own;
}
