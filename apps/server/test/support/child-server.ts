import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { DEMO_PASSWORD } from './test-server.js';
import { SERVER_NODE_FLAGS } from '../../src/runtime-flags.js';

export const SERVER_MAIN = path.resolve(import.meta.dirname, '../../dist/main.js');
/** node's arguments for the built server as it is deployed: its flags for node, then its main. */
export const SERVER_ARGS = [...SERVER_NODE_FLAGS, SERVER_MAIN];

/** The built server (`npm run build` first) running as a child process, for tests that kill it. */
export interface ChildServer {
  child: ChildProcess;
  url: string;
  dicomPort: number;
  /** Everything it printed so far. */
  output(): string;
  /** SIGKILL: no shutdown code runs. */
  kill(): Promise<void>;
  /** SIGTERM: the clean stop. */
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Starts the built server on dataDir (and databaseUrl) and waits until /api/v3/health answers.
 * `args` are node's arguments: the server as deployed unless a test says otherwise.
 */
export async function startChildServer(
  dataDir: string,
  env: Record<string, string> = {},
  args: readonly string[] = SERVER_ARGS,
): Promise<ChildServer> {
  const [port, dicomPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child = spawn(process.execPath, args, {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DICOM_PORT: String(dicomPort),
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      SEED_STUDIES: '0',
      SEED_NOMINATIONS: '0',
      LOG_LEVEL: 'warn',
      // 65,536 blob directories per test server would outweigh the few files a test stores.
      BLOB_DIRECTORIES_AHEAD: '0',
      // The tests' PACS peers are on 127.0.0.1, which destinations reach only when allowed.
      DICOM_ALLOWED_HOSTS: '127.0.0.1,::1,localhost',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${url}/api/v3/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not answer within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  return {
    child,
    url,
    dicomPort,
    output: () => output,
    kill: () => signal('SIGKILL'),
    stop: () => signal('SIGTERM'),
  };
}
