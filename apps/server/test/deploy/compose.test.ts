/**
 * deploy/compose.yaml, the cluster of docs/deploy.md as containers, brought up by podman-compose:
 * PostgreSQL, an S3-compatible store, three server processes of the product image and haproxy,
 * on their own network, with haproxy published on loopback ports. No image registry is reachable
 * here, so the third-party images are local stand-ins with the same interface (stand-ins/: Debian's
 * PostgreSQL 15 and haproxy, s3rver for MinIO), named through the compose file's image variables;
 * everything else is the file as shipped. Then a short version of the cluster test through
 * haproxy: every process becomes ready and answers, a user signs in, and a study uploaded through
 * one process is listed by each. The project (containers, volumes, network) and its subnet are this
 * run's own, so two checkouts testing on one machine at once never take down each other's cluster.
 */
import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/child-server.js';
import { buildImage, podman, podmanEnv, REPOSITORY, run } from '../support/podman.js';
import { ApiClient, DEMO_PASSWORD } from '../support/test-server.js';
import { tinyInstance } from '../support/tiny-instance.js';

const image = inject('inboxImage');
const base = inject('nodeBaseImage');
const COMPOSE_FILE = path.join(REPOSITORY, 'deploy/compose.yaml');
const STAND_INS = path.join(import.meta.dirname, 'stand-ins');
/** This run's own project, named by the process that owns it (see removeAbandonedProjects). */
const PROJECT = `inbox-compose-test-${process.pid}-${crypto.randomBytes(3).toString('hex')}`;
const NODES = ['node-a', 'node-b', 'node-c'];
const hasCompose = spawnSync('podman-compose', ['--version']).status === 0;

/**
 * A /24 under 172.30.0.0/16 that no podman network on this machine holds (the compose file's
 * default, 172.30.47.0/24, may be another run's): chosen at random, so two runs starting together
 * almost never pick the same one, and when they do the second's `up` fails, never the first's.
 */
async function freeSubnet(): Promise<string> {
  const names = (await podman(['network', 'ls', '--format', '{{.Name}}'])).split('\n').filter(Boolean);
  const taken = new Set<string>();
  if (names.length) {
    const networks = JSON.parse(await podman(['network', 'inspect', ...names])) as {
      subnets?: { subnet: string }[];
    }[];
    for (const network of networks) for (const { subnet } of network.subnets ?? []) taken.add(subnet);
  }
  for (;;) {
    const subnet = `172.30.${crypto.randomInt(48, 255)}.0/24`;
    if (!taken.has(subnet)) return subnet;
  }
}

/**
 * What runs that were killed before their afterAll left: the containers, volumes and network of
 * every project of this test whose owning process is gone. A live project (another checkout's run
 * at this moment) is left alone.
 */
async function removeAbandonedProjects(): Promise<void> {
  const labels = await podman(['ps', '-a', '--format', '{{index .Labels "io.podman.compose.project"}}']);
  const projects = new Set(labels.split('\n').filter((p) => /^inbox-compose-test-\d+-[0-9a-f]+$/.test(p)));
  for (const project of projects) {
    const pid = Number(project.split('-')[3]);
    const alive = (() => {
      try {
        process.kill(pid, 0);
        return true;
      } catch (error) {
        return (error as NodeJS.ErrnoException).code === 'EPERM';
      }
    })();
    if (alive) continue;
    const filter = `label=io.podman.compose.project=${project}`;
    const containers = (await podman(['ps', '-a', '-q', '--filter', filter])).split('\n').filter(Boolean);
    if (containers.length) await run('podman', ['rm', '--force', '--time', '1', ...containers]);
    // podman-compose 1.0.3 labels no volume: they are named <project>_<volume>.
    const volumes = (await podman(['volume', 'ls', '--format', '{{.Name}}']))
      .split('\n')
      .filter((v) => v.startsWith(`${project}_`));
    if (volumes.length) await run('podman', ['volume', 'rm', '--force', ...volumes]);
    await run('podman', ['network', 'rm', '--force', `${project}_inbox`]);
  }
}

/** A `podman run` or `network create` line of podman-compose's output, without labels and environment. */
function shortCommand(line: string): string {
  const words = line.split(' ');
  const last = words.at(-1)!;
  if (line.startsWith('podman network create'))
    return `podman network create ${/--subnet \S+/.exec(line)?.[0] ?? ''} ${last}`;
  const image = [...words]
    .reverse()
    .find((w) => /^(localhost\/|docker\.io\/|quay\.io\/|[0-9a-f]{64}$)/.test(w));
  return [
    'podman run -d',
    /--name=\S+/.exec(line)?.[0],
    ...[...line.matchAll(/ (-v|-p|--net) (\S+)/g)].map((m) => `${m[1]} ${m[2]}`),
    /^[0-9a-f]{64}$/.test(image ?? '') ? image!.slice(0, 12) : image,
  ]
    .filter(Boolean)
    .join(' ');
}

/** The lines of an haproxy configuration that are not comments or blank, trimmed. */
function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

/** The haproxy block of docs/deploy.md (the first code block under "## haproxy"). */
function documentedHaproxy(): string {
  const doc = fs.readFileSync(path.join(REPOSITORY, 'docs/deploy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('\n## haproxy\n'));
  return /\n```\n([\s\S]*?)\n```/.exec(section)![1]!;
}

describe('deploy/haproxy.cfg', () => {
  it('is the configuration docs/deploy.md documents, with container names as its servers', () => {
    const shipped = lines(fs.readFileSync(path.join(REPOSITORY, 'deploy/haproxy.cfg'), 'utf8'));
    // Only what a container network needs differs: the global and resolvers sections, the
    // resolver on default-server, the bind lines (plain HTTP inside the network) and the servers.
    const sections = (all: string[]) => {
      const kept: string[] = [];
      let skip = false;
      for (const line of all) {
        if (/^(global|resolvers|defaults|frontend|backend)\b/.test(line))
          skip = /^(global|resolvers)\b/.test(line);
        if (skip || line.startsWith('bind ') || line.startsWith('server ')) continue;
        kept.push(line.replace(' resolvers containers init-addr last,libc,none', ''));
      }
      return kept;
    };
    expect(sections(shipped)).toEqual(sections(lines(documentedHaproxy())));
    expect(shipped).toContain('option forwardfor');
    for (const [port, first] of [
      ['8080', 'backend app'],
      ['11112', 'backend dimse'],
    ] as const) {
      const servers = shipped
        .slice(shipped.indexOf(first))
        .filter((l) => l.startsWith('server '))
        .slice(0, 3);
      expect(servers).toEqual(NODES.map((n) => `server ${n} ${n}:${port} check`));
    }
    expect(shipped).toContain('bind :8080');
    expect(shipped).toContain('bind :11112');
  });
});

describe.skipIf(!image || !hasCompose)('deploy/compose.yaml brought up by podman-compose', () => {
  const secret = () => crypto.randomBytes(12).toString('hex');
  let httpPort: number;
  let env: NodeJS.ProcessEnv;
  const transcript: string[] = [];

  function compose(args: string[]) {
    return run('podman-compose', ['-p', PROJECT, '-f', COMPOSE_FILE, ...args], { env });
  }

  /** podman-compose 1.0.3 leaves the network behind: remove it too. */
  async function down() {
    await compose(['down', '-v', '-t', '20']);
    await run('podman', ['network', 'rm', '--force', `${PROJECT}_inbox`]);
  }

  beforeAll(async () => {
    const standIns: Record<string, string> = {};
    for (const [variable, file, tag] of [
      ['POSTGRES_IMAGE', 'postgres.Containerfile', 'localhost/imaging-inbox-standin-postgres:15'],
      ['S3_IMAGE', 's3.Containerfile', 'localhost/imaging-inbox-standin-s3:3.7.1'],
      ['HAPROXY_IMAGE', 'haproxy.Containerfile', 'localhost/imaging-inbox-standin-haproxy:2.6'],
    ] as const) {
      await buildImage(tag, path.join(STAND_INS, file), STAND_INS, base, () => {});
      standIns[variable] = tag;
    }
    httpPort = await freePort();
    env = {
      ...podmanEnv(),
      ...standIns,
      INBOX_IMAGE: image,
      INBOX_HTTP_PUBLISH: `127.0.0.1:${httpPort}`,
      INBOX_DICOM_PUBLISH: `127.0.0.1:${await freePort()}`,
      INBOX_SUBNET: await freeSubnet(),
      POSTGRES_PASSWORD: secret(),
      S3_SECRET_KEY: secret(),
      SEED_DEMO: '1',
      DEMO_PASSWORD,
      DRAIN_SECONDS: '1',
    };
    await removeAbandonedProjects();
    const started = Date.now();
    const up = await compose(['up', '-d']);
    expect(up.code, up.stdout + up.stderr).toBe(0);
    transcript.push(
      `$ INBOX_SUBNET=${env.INBOX_SUBNET} podman-compose -p ${PROJECT} -f deploy/compose.yaml up -d`,
      ...up.stdout
        .split('\n')
        .filter((l) => /^podman (network create|run) /.test(l))
        .map(shortCommand),
    );
    const ready = await waitForReady(240_000);
    if (!ready) expect.fail(`haproxy's /readyz did not answer 200 within 240 s:\n${await logs()}`);
    transcript.push(`haproxy's /readyz answered 200 ${Math.round((Date.now() - started) / 1000)} s after up`);
  });

  afterAll(async () => {
    if (transcript.length) console.log(transcript.join('\n'));
    if (env) await down();
  });

  async function waitForReady(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const status = await fetch(`http://127.0.0.1:${httpPort}/readyz`, {
        signal: AbortSignal.timeout(5000),
      }).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return true;
      await new Promise((r) => setTimeout(r, 500));
    }
    return false;
  }

  async function logs(): Promise<string> {
    const out: string[] = [];
    for (const service of ['postgres', 's3', ...NODES, 'haproxy']) {
      const log = await run('podman', ['logs', '--tail', '20', `${PROJECT}_${service}_1`]);
      out.push(`== ${service}\n${log.stdout}${log.stderr}`);
    }
    return out.join('\n');
  }

  it('answers from each of the three processes through haproxy, signs in, and shares one store', async () => {
    // Round robin over the processes haproxy's /readyz checks found up: all three, in time.
    const seen = new Set<string>();
    const deadline = Date.now() + 120_000;
    while (seen.size < NODES.length && Date.now() < deadline) {
      const answer = await fetch(`http://127.0.0.1:${httpPort}/healthz`).then(
        (r) => r.json() as Promise<{ process: string }>,
        () => undefined,
      );
      if (answer) seen.add(answer.process);
      else await new Promise((r) => setTimeout(r, 250));
    }
    expect([...seen].sort(), await logs()).toEqual(NODES);
    // Each process's own /readyz, from inside its container: the image's HEALTHCHECK.
    for (const node of NODES) {
      const check = await run('podman', ['healthcheck', 'run', `${PROJECT}_${node}_1`]);
      expect(check.code, `${node}: ${check.stdout}${check.stderr}`).toBe(0);
    }
    transcript.push(
      '$ podman ps',
      await podman([
        'ps',
        '--filter',
        `label=io.podman.compose.project=${PROJECT}`,
        '--format',
        '{{.Names}}  {{.Status}}  {{.Ports}}',
      ]),
      `/healthz through haproxy answered from ${[...seen].sort().join(', ')}; podman healthcheck run: healthy x3`,
    );

    const api = new ApiClient(`http://127.0.0.1:${httpPort}`);
    const sid = await api.login('clinician@demo.local');
    const emergency = await api.namespaceOf(sid, 'Emergency');
    const uploaded = await api.upload(
      sid,
      emergency,
      tinyInstance({
        patientName: 'COMPOSE^UPLOAD',
        patientId: 'COMPOSE-1',
        studyDescription: 'through haproxy',
      }),
    );
    expect(uploaded.body.status, JSON.stringify(uploaded.body)).toBe('OK');
    // Consecutive calls go to the processes in turn: each finds the study in the shared database.
    for (let n = 0; n < NODES.length; n++) {
      const { body } = await api.call(
        'study/list',
        { 'filter.study_uid.equals': String(uploaded.body.study_uid) },
        sid,
      );
      expect(body.studies).toHaveLength(1);
    }
    transcript.push('signed in through haproxy, uploaded a study, listed it three times in turn');
  });
});
