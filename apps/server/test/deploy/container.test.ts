/**
 * The product image (Containerfile) as an administrator runs it: one container on the embedded
 * defaults (SQLite and files on its volume), started with podman on loopback ports. A study
 * uploaded over api/v3 and one stored by C-STORE are both still there after the container is
 * stopped (SIGTERM, a clean stop) and started again, and the server runs as a user other than root.
 * The image is built by test/deploy/global-setup.ts, which prints its size and build time.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { freePort } from '../support/child-server.js';
import { podman, run } from '../support/podman.js';
import { storescu } from '../support/storescu.js';
import { ApiClient, DEMO_PASSWORD } from '../support/test-server.js';
import { tinyInstance } from '../support/tiny-instance.js';

const image = inject('inboxImage');

describe.skipIf(!image)('the container image, one container on its volume', () => {
  const suffix = crypto.randomBytes(4).toString('hex');
  const name = `inbox-test-${suffix}`;
  const volume = `inbox-test-data-${suffix}`;
  let httpPort: number;
  let dicomPort: number;
  let api: ApiClient;
  let work: string;

  async function ready(): Promise<void> {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${httpPort}/readyz`).then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return;
      const state = await podman(['inspect', '--format', '{{.State.Status}}', name]);
      if (state !== 'running' || Date.now() > deadline)
        throw new Error(
          `the container is ${state}, not ready:\n${(await run('podman', ['logs', name])).stderr}`,
        );
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-container-'));
    [httpPort, dicomPort] = [await freePort(), await freePort()];
    api = new ApiClient(`http://127.0.0.1:${httpPort}`);
    await podman(['volume', 'create', volume]);
    // Host networking on loopback ports: the demo's DICOM sender DEMO_GATEWAY is registered at 127.0.0.1.
    await podman([
      'create',
      '--name',
      name,
      '--network=host',
      '--volume',
      `${volume}:/var/lib/inbox`,
      '--env',
      'HOST=127.0.0.1',
      '--env',
      `PORT=${httpPort}`,
      '--env',
      `DICOM_PORT=${dicomPort}`,
      '--env',
      `DEMO_PASSWORD=${DEMO_PASSWORD}`,
      '--env',
      'SEED_STUDIES=2',
      image,
    ]);
    await podman(['start', name]);
    await ready();
  });

  afterAll(async () => {
    await run('podman', ['rm', '--force', '--time', '1', name]);
    await run('podman', ['volume', 'rm', '--force', volume]);
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  async function studyCount(sid: string, studyUid: string): Promise<number> {
    const { body } = await api.call('study/list', { 'filter.study_uid.equals': studyUid }, sid);
    return (body.studies as unknown[]).length;
  }

  it('keeps an uploaded and a C-STORE study across a restart, as a user other than root', async () => {
    const sid = await api.login('clinician@demo.local');
    const emergency = await api.namespaceOf(sid, 'Emergency');

    const uploaded = await api.upload(
      sid,
      emergency,
      tinyInstance({ patientName: 'IMAGE^UPLOAD', patientId: 'IMG-UP', studyDescription: 'uploaded' }),
    );
    expect(uploaded.body.status, JSON.stringify(uploaded.body)).toBe('OK');
    const uploadedUid = String(uploaded.body.study_uid);

    const bytes = tinyInstance({
      patientName: 'IMAGE^CSTORE',
      patientId: 'IMG-CS',
      studyDescription: 'c-store',
    });
    const file = path.join(work, 'cstore.dcm');
    fs.writeFileSync(file, bytes);
    const sent = await storescu([
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '127.0.0.1',
      String(dicomPort),
      file,
    ]);
    expect(sent.code, sent.output).toBe(0);
    const storedUid = /\(0020,000d\) UI \[([0-9.]+)\]/.exec(
      (await run('dcmdump', ['+P', '0020,000d', file], { env: process.env })).stdout,
    )?.[1];
    expect(storedUid).toBeTruthy();

    expect(await studyCount(sid, uploadedUid)).toBe(1);
    expect(await studyCount(sid, storedUid!)).toBe(1);

    // The server is the container's first process (scripts/serve.sh execs node), and not root.
    const pid = await podman(['inspect', '--format', '{{.State.Pid}}', name]);
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const uid = Number(/^Uid:\s+(\d+)/m.exec(status)![1]);
    expect(/^Name:\s+(\S+)/m.exec(status)![1]).toBe('node');
    expect(uid).not.toBe(0);
    expect(await podman(['exec', name, 'id', '-un'])).toBe('inbox');
    expect(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain(
      '--heap-growing-percent=100',
    );

    // SIGTERM: a clean stop (exit 0), so the next start runs no recovery scan.
    await podman(['stop', '--time', '30', name]);
    expect(await podman(['inspect', '--format', '{{.State.ExitCode}}', name])).toBe('0');
    await podman(['start', name]);
    await ready();
    const logs = await run('podman', ['logs', name]);
    expect(logs.stdout + logs.stderr).not.toMatch(/Recovery scan after an unclean stop/);

    const again = await api.login('clinician@demo.local', DEMO_PASSWORD);
    expect(await studyCount(again, uploadedUid)).toBe(1);
    expect(await studyCount(again, storedUid!)).toBe(1);
    const healthy = await run('podman', ['healthcheck', 'run', name]);
    expect(healthy.code, healthy.stdout + healthy.stderr).toBe(0);
  });
});
