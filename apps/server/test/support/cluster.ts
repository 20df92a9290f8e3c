import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { freePort, SERVER_ARGS } from './child-server.js';
import { DEMO_PASSWORD } from './test-server.js';

/**
 * A server process of a cluster with fixed ports (so haproxy's configuration stays true across
 * restarts) and its own DATA_DIR, that can be killed with SIGKILL and started again.
 */
export class ClusterNode {
  child: ChildProcess | undefined;
  private log = '';
  readonly dataDir: string;

  private constructor(
    readonly id: string,
    readonly port: number,
    readonly dicomPort: number,
    work: string,
    private readonly env: Record<string, string>,
    private readonly args: readonly string[],
  ) {
    this.dataDir = path.join(work, id);
    fs.mkdirSync(this.dataDir, { recursive: true });
  }

  /** `args`: node's arguments, the built server by default (a bench may start another build). */
  static async create(
    id: string,
    work: string,
    env: Record<string, string>,
    args: readonly string[] = SERVER_ARGS,
  ): Promise<ClusterNode> {
    return new ClusterNode(id, await freePort(), await freePort(), work, env, args);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  output(): string {
    return this.log;
  }

  /** Starts the built server and waits until /readyz answers 200. */
  async start(): Promise<void> {
    const child = spawn(process.execPath, this.args, {
      env: {
        ...process.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        DICOM_PORT: String(this.dicomPort),
        DATA_DIR: this.dataDir,
        PROCESS_ID: this.id,
        DEMO_PASSWORD,
        LOG_LEVEL: 'error',
        // 65,536 blob directories per node would outweigh the few files a test stores.
        BLOB_DIRECTORIES_AHEAD: '0',
        // The tests' PACS peers are on 127.0.0.1, which destinations reach only when allowed.
        DICOM_ALLOWED_HOSTS: '127.0.0.1,::1,localhost',
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout.on('data', (c: Buffer) => (this.log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (this.log += c.toString()));
    const deadline = Date.now() + 90_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${this.id} exited with ${child.exitCode}:\n${this.log}`);
      const ready = await fetch(`${this.url}/readyz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ready) return;
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${this.id} was not ready within 90 s:\n${this.log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  private async signal(name: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(name);
    await exited;
  }

  /** kill -9: no shutdown code runs. */
  kill(): Promise<void> {
    return this.signal('SIGKILL');
  }

  stop(): Promise<void> {
    return this.signal('SIGTERM');
  }
}

/** Debian's haproxy in front: HTTP balanced with active /readyz checks, DICOM balanced in TCP mode. */
export class Haproxy {
  private child: ChildProcess | undefined;
  private log = '';

  private constructor(
    readonly httpPort: number,
    readonly dicomPort: number,
    private readonly file: string,
  ) {}

  static async start(work: string, nodes: ClusterNode[]): Promise<Haproxy> {
    const proxy = new Haproxy(await freePort(), await freePort(), path.join(work, 'haproxy.cfg'));
    fs.writeFileSync(proxy.file, haproxyConfig(proxy.httpPort, proxy.dicomPort, nodes));
    const child = spawn('haproxy', ['-db', '-f', proxy.file], { stdio: ['ignore', 'pipe', 'pipe'] });
    proxy.child = child;
    child.stdout.on('data', (c: Buffer) => (proxy.log += c.toString()));
    child.stderr.on('data', (c: Buffer) => (proxy.log += c.toString()));
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`haproxy exited:\n${proxy.log}`);
      const ok = await fetch(`http://127.0.0.1:${proxy.httpPort}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return proxy;
      if (Date.now() > deadline) throw new Error(`haproxy did not answer:\n${proxy.log}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  get url(): string {
    return `http://127.0.0.1:${this.httpPort}`;
  }

  /** haproxy's process id while it runs (benches read its CPU). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
}

/**
 * The configuration docs/deploy.md describes, on loopback ports: /readyz checked every 500 ms (two
 * failures take a process out, one success brings it back; a refused connection is retried on
 * another process at once), a request to a process that fell
 * away mid-connect sent to another (redispatch), and each answer naming the process that served it.
 */
export function haproxyConfig(httpPort: number, dicomPort: number, nodes: ClusterNode[]): string {
  const servers = (port: (n: ClusterNode) => number) =>
    nodes.map((n) => `  server ${n.id} 127.0.0.1:${port(n)} check`).join('\n');
  return `global
  maxconn 1024

defaults
  timeout connect 2s
  timeout client 120s
  timeout server 120s
  retries 3
  option redispatch
  timeout check 3s
  default-server inter 500ms fall 2 rise 1

frontend http_in
  mode http
  bind 127.0.0.1:${httpPort}
  default_backend app

backend app
  mode http
  balance roundrobin
  option httpchk GET /readyz
  http-check expect status 200
  http-response set-header X-Served-By %s
${servers((n) => n.port)}

frontend dicom_in
  mode tcp
  bind 127.0.0.1:${dicomPort}
  default_backend dimse

backend dimse
  mode tcp
  balance roundrobin
${servers((n) => n.dicomPort)}
`;
}
