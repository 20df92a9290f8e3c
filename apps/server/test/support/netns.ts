import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

/**
 * A private network namespace with only a loopback interface, for peers that cannot choose their
 * listening address (Orthanc, dcmtk's servers bind every interface). Whatever runs inside sees its
 * own 127.0.0.1, so nothing listens on the machine's real interfaces; the test reaches the peers
 * by running its clients inside the namespace too (`nsenter`).
 */
export interface NetworkNamespace {
  /** Runs a command inside the namespace and answers its standard output. */
  run(command: string, args: string[], options?: { input?: string }): Promise<string>;
  /** Starts a long-running process inside the namespace. */
  start(command: string, args: string[], env?: Record<string, string>): ChildProcess;
  /** Stops every process started here (SIGTERM, then SIGKILL after 5 s), then the namespace. */
  stop(): Promise<void>;
}

export async function createNetworkNamespace(): Promise<NetworkNamespace> {
  // The holder keeps the namespace alive; everything else joins it by the holder's pid.
  const holder = spawn('unshare', ['-n', '--', 'sh', '-c', 'ip link set lo up && exec sleep 86400'], {
    stdio: 'ignore',
  });
  const children: ChildProcess[] = [];
  const pid = holder.pid;
  if (!pid) throw new Error('unshare did not start (the tests need root for network namespaces)');
  // Wait until the loopback is up inside (the `ip` call ran before the `exec sleep`).
  for (let i = 0; i < 50; i++) {
    const { stdout } = await execFileAsync('nsenter', [
      '-t',
      String(pid),
      '-n',
      'ip',
      '-o',
      'link',
      'show',
      'lo',
    ]);
    if (stdout.includes('UP')) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const enter = ['-t', String(pid), '-n', '--'];
  return {
    async run(command, args, options = {}) {
      if (options.input === undefined) {
        const { stdout } = await execFileAsync('nsenter', [...enter, command, ...args], {
          maxBuffer: 64 * 1024 * 1024,
        });
        return stdout;
      }
      return await new Promise<string>((resolve, reject) => {
        const child = spawn('nsenter', [...enter, command, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('close', (code) =>
          code === 0 ? resolve(out) : reject(new Error(`${command} exited ${code}`)),
        );
        child.stdin.end(options.input);
      });
    },
    start(command, args, env = {}) {
      const child = spawn('nsenter', [...enter, command, ...args], {
        env: { ...process.env, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      return child;
    },
    async stop() {
      await Promise.all(children.map((child) => stopChild(child)));
      holder.kill('SIGKILL');
    },
  };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** Polls an HTTP address from inside the namespace until it answers 200. */
export async function waitForHttp(ns: NetworkNamespace, url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const code = await ns
      .run('curl', ['-s', '-o', '/dev/null', '-w', '%{http_code}', url])
      .catch(() => '000');
    if (code === '200') return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}
