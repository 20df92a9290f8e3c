import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Podman as it runs on the test machines (../shared/PEERS.md, "Containers"): as root, with runc
 * (crun refuses the kernel's hybrid cgroups), and with the container's rlimits no higher than this
 * process's own (raising them is refused). Every podman and podman-compose call of the tests goes
 * through one containers.conf that says so.
 */
export const REPOSITORY = path.resolve(import.meta.dirname, '../../../..');

let conf: string | undefined;

/** The environment every podman (and podman-compose) call of the tests runs with. */
export function podmanEnv(): NodeJS.ProcessEnv {
  if (!conf) {
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const hard = (name: string, fallback: number) => {
      const value = new RegExp(`^${name}\\s+\\S+\\s+(\\S+)`, 'm').exec(limits)?.[1];
      return value === undefined || value === 'unlimited' ? fallback : Number(value);
    };
    const nofile = Math.min(hard('Max open files', 65536), 65536);
    const nproc = Math.min(hard('Max processes', 4096), 4096);
    conf = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-podman-')), 'containers.conf');
    fs.writeFileSync(
      conf,
      [
        '[containers]',
        `default_ulimits = ["nofile=${nofile}:${nofile}", "nproc=${nproc}:${nproc}"]`,
        '[engine]',
        'runtime = "runc"',
        'events_logger = "file"',
        '',
      ].join('\n'),
    );
  }
  return { ...process.env, CONTAINERS_CONF: conf };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without blocking the event loop; `input` is piped to its standard input. */
export function run(
  command: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; input?: string; onOutput?: (chunk: string) => void } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: options.env ?? podmanEnv(),
      cwd: options.cwd ?? REPOSITORY,
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c.toString();
      options.onOutput?.(c.toString());
    });
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      options.onOutput?.(c.toString());
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    if (options.input !== undefined) child.stdin!.end(options.input);
  });
}

/** `podman ARGS`; throws with its output when it fails. */
export async function podman(args: string[]): Promise<string> {
  const result = await run('podman', args);
  if (result.code !== 0)
    throw new Error(`podman ${args.join(' ')} failed (${result.code}):\n${result.stdout}\n${result.stderr}`);
  return result.stdout.trim();
}

export function hasPodman(): boolean {
  return spawnSync('podman', ['--version']).status === 0 && fs.existsSync('/usr/sbin/runc');
}

export async function imageExists(tag: string): Promise<boolean> {
  return (await run('podman', ['image', 'exists', tag])).code === 0;
}

/** The Debian mirror apt uses on this machine (deb822 sources first, then sources.list). */
function debianMirror(): string {
  for (const file of ['/etc/apt/sources.list.d/debian.sources', '/etc/apt/sources.list']) {
    if (!fs.existsSync(file)) continue;
    const text = fs.readFileSync(file, 'utf8');
    const uri =
      /^URIs:\s*(\S+\/debian)\/?\s*$/m.exec(text)?.[1] ??
      /^deb\s+(?:\[[^\]]*\]\s+)?(\S+\/debian)\/?\s/m.exec(text)?.[1];
    if (uri) return uri;
  }
  return 'http://deb.debian.org/debian';
}

/**
 * The Node 20 base image the tests build on, in place of node:20-bookworm-slim, which no registry
 * here serves: Debian bookworm (minbase, from the machine's mirror) with this machine's node, npm
 * and node headers under /usr/local as the official image has them, and the machine's own CA
 * certificates and npm settings so npm and apt reach their registries as they do here. Made once
 * per node version (about two minutes); a later run finds it by its tag.
 */
export async function nodeBaseImage(log: (line: string) => void = console.log): Promise<string> {
  const tag = `localhost/imaging-inbox-node-base:${process.version}-bookworm`;
  if (await imageExists(tag)) return tag;
  const started = Date.now();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-rootfs-'));
  try {
    const mirror = debianMirror();
    log(`Making ${tag}: debootstrap --variant=minbase bookworm from ${mirror}`);
    const strap = await run('debootstrap', ['--variant=minbase', 'bookworm', root, mirror], {
      env: process.env,
    });
    if (strap.code !== 0)
      throw new Error(`debootstrap failed:\n${strap.stdout.slice(-2000)}\n${strap.stderr}`);
    const prefix = path.dirname(path.dirname(fs.realpathSync(process.execPath)));
    const local = path.join(root, 'usr/local');
    fs.mkdirSync(path.join(local, 'lib/node_modules'), { recursive: true });
    fs.copyFileSync(process.execPath, path.join(local, 'bin/node'));
    fs.chmodSync(path.join(local, 'bin/node'), 0o755);
    const copy = await run('cp', [
      '-a',
      path.join(prefix, 'lib/node_modules/npm'),
      path.join(local, 'lib/node_modules/'),
    ]);
    if (copy.code !== 0) throw new Error(`copying npm failed: ${copy.stderr}`);
    fs.symlinkSync('../lib/node_modules/npm/bin/npm-cli.js', path.join(local, 'bin/npm'));
    fs.symlinkSync('../lib/node_modules/npm/bin/npx-cli.js', path.join(local, 'bin/npx'));
    fs.cpSync(path.join(prefix, 'include/node'), path.join(local, 'include/node'), { recursive: true });
    if (fs.existsSync(path.join(prefix, 'etc/npmrc')))
      fs.cpSync(path.join(prefix, 'etc/npmrc'), path.join(local, 'etc/npmrc'));
    // The machine's own certificate authorities: apt's ca-certificates adds them to the bundle.
    const cas = '/usr/local/share/ca-certificates';
    if (fs.existsSync(cas)) fs.cpSync(cas, path.join(root, cas), { recursive: true });
    fs.rmSync(path.join(root, 'var/cache/apt/archives'), { recursive: true, force: true });
    fs.rmSync(path.join(root, 'var/lib/apt/lists'), { recursive: true, force: true });
    fs.mkdirSync(path.join(root, 'var/cache/apt/archives/partial'), { recursive: true });
    fs.mkdirSync(path.join(root, 'var/lib/apt/lists/partial'), { recursive: true });
    const imported = await run('sh', ['-c', `tar -C "${root}" -c . | podman import - "${tag}"`]);
    if (imported.code !== 0) throw new Error(`podman import failed:\n${imported.stderr}`);
    log(`Made ${tag} in ${Math.round((Date.now() - started) / 1000)} s`);
    return tag;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/**
 * `podman build` of a Containerfile on the local base. The machine's npm cache is lent to the
 * build's RUN steps, so `npm ci` in the image takes its packages from there when it has them.
 * Docker format, so the image keeps its HEALTHCHECK. Answers the image's ID as this build made it:
 * a tag may meanwhile name another checkout's build on the same machine, the ID never does.
 */
export async function buildImage(
  tag: string,
  containerfile: string,
  context: string,
  baseImage: string,
  log: (line: string) => void = console.log,
): Promise<{ seconds: number; imageId: string }> {
  const started = Date.now();
  const npmCache = path.join(os.homedir(), '.npm');
  fs.mkdirSync(npmCache, { recursive: true });
  const idFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-build-')), 'image-id');
  const args = [
    'build',
    '--iidfile',
    idFile,
    '--format',
    'docker',
    '--build-arg',
    `BASE_IMAGE=${baseImage}`,
    '--volume',
    `${npmCache}:/root/.npm`,
    '-t',
    tag,
    '-f',
    containerfile,
    context,
  ];
  let tail = '';
  const result = await run('podman', args, {
    onOutput: (chunk) => {
      tail = (tail + chunk).slice(-6000);
      for (const line of chunk.split('\n')) if (/^\[\d\/\d\] STEP|^STEP /.test(line)) log(line.slice(0, 160));
    },
  });
  if (result.code !== 0) throw new Error(`podman build of ${tag} failed (${result.code}):\n${tail}`);
  const imageId = fs
    .readFileSync(idFile, 'utf8')
    .trim()
    .replace(/^sha256:/, '');
  fs.rmSync(path.dirname(idFile), { recursive: true, force: true });
  return { seconds: Math.round((Date.now() - started) / 100) / 10, imageId };
}

/** The image's size as podman reports it, in MB. */
export async function imageSizeMb(tag: string): Promise<number> {
  return Math.round(Number(await podman(['image', 'inspect', '--format', '{{.Size}}', tag])) / 1e6);
}
