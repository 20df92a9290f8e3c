import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const DEPLOY_DOC = path.resolve(import.meta.dirname, '../../../../docs/deploy.md');

/** The haproxy configuration exactly as docs/deploy.md prints it (the first code block of "## haproxy"). */
export function documentedHaproxyText(): string {
  const doc = fs.readFileSync(DEPLOY_DOC, 'utf8');
  const section = doc.slice(doc.indexOf('\n## haproxy\n'));
  const block = /\n```\n([\s\S]*?)\n```/.exec(section);
  if (!block) throw new Error('docs/deploy.md has no haproxy block under "## haproxy"');
  return block[1]!;
}

export interface HaproxyPlacement {
  httpPort: number;
  dicomPort: number;
  /** `name host:port` of each process, for HTTP and for DICOM. */
  http: string[];
  dicom: string[];
  /** Lines added to `backend app` (a test's own marks, such as which process answered). */
  appExtra?: string[];
}

/**
 * The documented configuration placed on loopback: its two `bind` lines listen on the given ports
 * without TLS and each backend's `server` lines name the given processes; every other line is the
 * document's own. Throws when the document no longer has the lines replaced here, so a change to
 * the document cannot silently leave its test behind.
 */
export function documentedHaproxyConfig(place: HaproxyPlacement): string {
  const out: string[] = ['global', '  maxconn 1024', ''];
  let section = '';
  const seen = new Set<string>();
  for (const line of documentedHaproxyText().split('\n')) {
    if (/^\S/.test(line)) {
      section = line.trim();
      out.push(line);
      const servers =
        section === 'backend app' ? place.http : section === 'backend dimse' ? place.dicom : null;
      if (servers) {
        seen.add(section);
        if (section === 'backend app') out.push(...(place.appExtra ?? []).map((l) => `  ${l}`));
        out.push(...servers.map((s) => `  server ${s} check`));
      }
      continue;
    }
    const trimmed = line.trim();
    if (trimmed.startsWith('bind ')) {
      if (section === 'frontend http_in') out.push(`  bind 127.0.0.1:${place.httpPort}`);
      else if (section === 'frontend dicom_in') out.push(`  bind 127.0.0.1:${place.dicomPort}`);
      else throw new Error(`unexpected bind in ${section}`);
      seen.add(`${section} bind`);
      continue;
    }
    if (trimmed.startsWith('server ') && (section === 'backend app' || section === 'backend dimse')) continue;
    out.push(line);
  }
  for (const needed of ['backend app', 'backend dimse', 'frontend http_in bind', 'frontend dicom_in bind'])
    if (!seen.has(needed)) throw new Error(`docs/deploy.md's haproxy block has no ${needed}`);
  return `${out.join('\n')}\n`;
}

/** Debian's haproxy running one configuration, until stopped. */
export class HaproxyProcess {
  private log = '';

  private constructor(private readonly child: ChildProcess) {
    child.stdout?.on('data', (c: Buffer) => (this.log += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.log += c.toString()));
  }

  /** Starts haproxy on `config` (written into `work`) and waits until `readyUrl` answers 200 through it. */
  static async start(work: string, config: string, readyUrl: string): Promise<HaproxyProcess> {
    const file = path.join(work, 'haproxy.cfg');
    fs.writeFileSync(file, config);
    const proxy = new HaproxyProcess(
      spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] }),
    );
    const deadline = Date.now() + 20_000;
    for (;;) {
      if (proxy.child.exitCode !== null) throw new Error(`haproxy exited:\n${proxy.log}`);
      const ok = await fetch(readyUrl).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return proxy;
      if (Date.now() > deadline) {
        await proxy.stop();
        throw new Error(`haproxy did not answer:\n${proxy.log}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await exited;
  }
}
