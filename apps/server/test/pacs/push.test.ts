import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import dicomParser from 'dicom-parser';
import { addDestination, demoWorld } from '../support/demo-world.js';
import { freshCorpusCopy } from '../support/corpus.js';
import type { NetworkNamespace } from '../support/netns.js';
import type { Forward } from '../support/netns-forward.js';
import { forwardIntoNamespace } from '../support/netns-forward.js';
import type { Orthanc } from '../support/orthanc.js';
import { startOrthanc } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const J2K_LOSSLESS = '1.2.840.10008.1.2.4.90';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/** The dataset of a Part-10 file: what follows its meta group. */
function datasetOf(file: Buffer): Buffer {
  const groupLength = file.readUInt32LE(132 + 8);
  return file.subarray(132 + 12 + groupLength);
}

interface Attempt {
  uuid: string;
  status: string;
  reason: string | null;
  image_count: number;
  images_sent: number;
  images_failed: number;
  destination_name: string;
}

describe.each(DIALECTS)('Push to PACS (Orthanc) on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let ns: NetworkNamespace;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let workDir: string;
  let admin: string;
  let account: string;
  let destination: string;
  let studies: { uuid: string; study_uid: string; image_count: number }[];

  const pushes = async (study: string) =>
    (await server.api.call('study/push/list', { uuid: study }, admin)).body.pushes as Attempt[];
  const ended = (study: string) =>
    until(
      () => pushes(study),
      (list) => list.length > 0 && !['I', 'N'].includes(list[0]!.status),
    ).then((list) => list[0]!);
  const orthancHas = async (studyUid: string) => {
    const found = await orthanc.rest<string[]>('POST', '/tools/lookup', studyUid);
    if (!Array.isArray(found) || !found.length) return 0;
    const id = (found[0] as unknown as { ID: string }).ID;
    return (await orthanc.rest<string[]>('GET', `/studies/${id}/instances`)).length;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    peer = await startOrthancPacs('inbox-push-');
    ({ ns, orthanc, toOrthanc, workDir } = peer);
    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    account = world.account;
    destination = await addDestination(server.api, admin, account, {
      name: 'Orthanc',
      aetitle: 'ORTHANC',
      port: toOrthanc.port,
      can_search: 1,
      can_push: 1,
    });
    studies = (await server.api.call('study/list', { 'page.rows': 10 }, admin)).body.studies;
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await server?.stop();
  });

  it('pushes a study: every instance stored at Orthanc, the attempt S with its counts, audited', async () => {
    const study = studies[0]!;
    const started = await server.api.call(
      'study/push',
      { uuid: study.uuid, destination_id: destination },
      admin,
    );
    expect(started.body).toMatchObject({
      status: 'OK',
      push: { status: 'I', destination_name: 'Orthanc', image_count: study.image_count },
    });
    const attempt = await ended(study.uuid);
    expect(attempt).toMatchObject({
      status: 'S',
      reason: null,
      image_count: study.image_count,
      images_sent: study.image_count,
      images_failed: 0,
    });
    expect(await orthancHas(study.study_uid)).toBe(study.image_count);
    // The study answer lists the attempt.
    const got = await server.api.call('study/get', { uuid: study.uuid }, admin);
    expect(got.body.study_push_status[0]).toMatchObject({ status: 'S', destination_name: 'Orthanc' });
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'outcome'])
      .where('object_id', '=', study.uuid)
      .where('action', 'in', ['PUSH', 'PUSH_END'])
      .orderBy('id')
      .execute();
    expect(events).toEqual([
      { action: 'PUSH', outcome: 'SUCCESS' },
      { action: 'PUSH_END', outcome: 'SUCCESS' },
    ]);
  }, 60_000);

  it('ends F with "no DICOM answer" when Orthanc refuses the association', async () => {
    const wrongAe = await addDestination(server.api, admin, account, {
      name: 'Wrong AE',
      aetitle: 'NOT_ORTHANC',
      port: toOrthanc.port,
      can_push: 1,
    });
    const study = studies[1]!;
    await server.api.call('study/push', { uuid: study.uuid, destination_id: wrongAe }, admin);
    const attempt = await ended(study.uuid);
    expect(attempt).toMatchObject({ status: 'F', images_sent: 0, destination_name: 'Wrong AE' });
    // Refused, closed or not DICOM alike: the account learns no more (decision 0054).
    expect(attempt.reason).toMatch(/no DICOM answer/);
    expect(await orthancHas(study.study_uid)).toBe(0);
  }, 60_000);

  it('ends P or F when the PACS dies, answers PENDING meanwhile, then Retry sends only what is missing', async () => {
    const study = studies[2]!;
    orthanc.process.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    const first = await server.api.call(
      'study/push',
      { uuid: study.uuid, destination_id: destination },
      admin,
    );
    expect(first.body.status).toBe('OK');
    // While it is queued or sending again, a second push of the same study there is refused.
    const second = await server.api.call(
      'study/push',
      { uuid: study.uuid, destination_id: destination },
      admin,
    );
    expect(second.body).toMatchObject({ status: 'ERROR', error_type: 'PENDING' });
    const failed = await ended(study.uuid);
    expect(['P', 'F']).toContain(failed.status);
    expect(failed.reason).toBeTruthy();

    await orthanc.restart();
    const retry = await server.api.call(
      'study/push',
      { uuid: study.uuid, destination_id: destination },
      admin,
    );
    expect(retry.body.push.image_count).toBe(study.image_count - failed.images_sent);
    const done = await ended(study.uuid);
    expect(done.status).toBe('S');
    expect(await orthancHas(study.study_uid)).toBe(study.image_count);
    expect((await pushes(study.uuid)).map((p) => p.status)).toEqual(['S', failed.status]);
  }, 90_000);

  it('refuses bad pushes with a clear error and queues nothing', async () => {
    const study = studies[3]!;
    const before = await pushes(study.uuid);
    const clinician = await server.api.login('clinician@demo.local');
    const error = async (params: Record<string, string>, sid = admin) =>
      (await server.api.call('study/push', params, sid)).body.error_type as string;
    expect(await error({ uuid: study.uuid })).toBe('MISSING_FIELDS');
    expect(await error({ uuid: study.uuid, destination_id: 'no-such' })).toBe('NOT_FOUND');
    expect(await error({ uuid: 'no-such', destination_id: destination })).toBe('NOT_FOUND');
    // The clinician sees the study but holds no study_push.
    expect(await error({ uuid: study.uuid, destination_id: destination }, clinician)).toMatch(
      /NOT_PERMITTED|NOT_FOUND/,
    );
    const searchOnly = await addDestination(server.api, admin, account, {
      name: 'Search only',
      aetitle: 'SEARCH_ONLY',
      port: 104,
      can_search: 1,
    });
    expect(await error({ uuid: study.uuid, destination_id: searchOnly })).toBe('INVALID_FIELD');
    expect(await pushes(study.uuid)).toEqual(before);
  });

  it('resumes an attempt whose runner died, sending only the instances it had not stored', async () => {
    const study = studies[4]!;
    const db = server.ctx.db.kysely;
    const instances = await server.ctx.repos.studyPushes.instancesOfStudy(study.uuid);
    expect(instances.length).toBeGreaterThan(1);
    // The state a runner leaves when it dies mid-push: the attempt sending, some instances stored
    // (here: marked so without sending them, so Orthanc shows exactly what the resumed pass sends),
    // and its job claimed with a lease that has run out.
    const uuid = crypto.randomUUID();
    const now = Date.now();
    await server.ctx.repos.studyPushes.insert(
      {
        uuid,
        study_uuid: study.uuid,
        account_id: account,
        destination_id: destination,
        destination_name: 'Orthanc',
        user_id: (await server.api.call('session/user', {}, admin)).body.uuid,
        status: 'N',
        reason: null,
        image_count: instances.length,
        created: now,
        updated: now,
      },
      instances,
    );
    const stored = instances.slice(0, Math.floor(instances.length / 2));
    for (const i of stored) {
      await server.ctx.repos.studyPushes.recordInstance(uuid, i.sop_instance_uid, {
        state: 'stored',
        reason: null,
      });
    }
    await db
      .insertInto('jobs')
      .values({
        kind: 'study.push',
        payload: JSON.stringify({ push: uuid, destination }),
        status: 'running',
        attempts: 1,
        run_at: now,
        locked_until: now - 1,
        last_error: null,
        dedupe_key: `push:${uuid}`,
        concurrency_key: `push:${destination}`,
        concurrency_cap: 2,
        created: now,
        updated: now,
      })
      .execute();
    server.ctx.services.jobRunner.kick();
    const done = await ended(study.uuid);
    expect(done).toMatchObject({ uuid, status: 'S', images_sent: instances.length });
    expect(await orthancHas(study.study_uid)).toBe(instances.length - stored.length);
  }, 60_000);

  it('pushes a JPEG 2000 study kept in JPEG 2000 where it is accepted; elsewhere it falls back to Explicit VR Little Endian, or fails the instance with the reason', async () => {
    const cardiology = await server.api.namespaceOf(admin, 'Cardiology');
    // Two JPEG 2000 studies of one instance each: one sound, one whose codestream no decoder reads.
    const sound = freshCorpusCopy('MR_small_jp2klossless.dcm');
    const broken = freshCorpusCopy('MR_small_jp2klossless.dcm');
    expect(sound.transferSyntax).toBe(J2K_LOSSLESS);
    const codestream = broken.bytes.indexOf(Buffer.from([0xff, 0x4f, 0xff, 0x51]));
    expect(codestream).toBeGreaterThan(0);
    broken.bytes.fill(0, codestream, codestream + 4);
    const uploaded = async (bytes: Buffer) => {
      expect([200, 202]).toContain((await server.api.upload(admin, cardiology, bytes)).status);
      const studyUid = dicomParser.parseDicom(new Uint8Array(bytes)).string('x0020000d')!.trim();
      const listed = await until(
        () => server.api.call('study/list', { 'filter.study_uid.equals': studyUid }, admin),
        (answer) => answer.body.studies.length === 1,
      );
      return listed.body.studies[0] as { uuid: string; study_uid: string };
    };
    const j2k = await uploaded(sound.bytes);
    const unreadable = await uploaded(broken.bytes);
    const push = async (study: { uuid: string }, to: string) => {
      const started = await server.api.call('study/push', { uuid: study.uuid, destination_id: to }, admin);
      expect(started.body).toMatchObject({ status: 'OK' });
      return ended(study.uuid);
    };
    const heldBy = async (pacs: Orthanc, studyUid: string) => {
      const [found] = await pacs.rest<{ ID: string }[]>('POST', '/tools/lookup', studyUid);
      const [instance] = await pacs
        .rest<string[]>('GET', `/studies/${found!.ID}/instances?expand`)
        .then((list) => list as unknown as { ID: string }[]);
      const meta = await pacs.rest<Record<string, string>>(
        'GET',
        `/instances/${instance!.ID}/metadata?expand`,
      );
      return {
        syntax: meta['TransferSyntax'],
        file: await pacs.restBytes(`/instances/${instance!.ID}/file`),
      };
    };

    // Orthanc accepts JPEG 2000: the very dataset bytes arrive, still JPEG 2000.
    expect(await push(j2k, destination)).toMatchObject({ status: 'S', images_sent: 1, images_failed: 0 });
    const kept = await heldBy(orthanc, j2k.study_uid);
    expect(kept.syntax).toBe(J2K_LOSSLESS);
    expect(datasetOf(kept.file).equals(datasetOf(sound.bytes))).toBe(true);

    // A PACS that does not take JPEG 2000: the instance goes as Explicit VR Little Endian...
    const plainDir = path.join(workDir, 'plain');
    fs.mkdirSync(plainDir);
    const plain = await startOrthanc(ns, plainDir, {
      modalities: { INBOX: ['INBOX', '127.0.0.1', 11112] },
      dicomPort: 4243,
      httpPort: 8043,
      // Its own AE title: a destination's AE and host are a registered sender, one per destination.
      config: { DicomAet: 'PLAIN_PACS', Jpeg2000TransferSyntaxAccepted: false },
    });
    const toPlain = await forwardIntoNamespace(ns, plain.dicomPort);
    try {
      const noJ2k = await addDestination(server.api, admin, account, {
        name: 'No JPEG 2000',
        aetitle: 'PLAIN_PACS',
        port: toPlain.port,
        can_push: 1,
      });
      expect(noJ2k).toBeTruthy();
      expect(await push(j2k, noJ2k)).toMatchObject({ status: 'S', images_sent: 1 });
      expect((await heldBy(plain, j2k.study_uid)).syntax).toBe(EXPLICIT_LE);

      // ...and one that cannot be decoded fails, saying why; nothing of it reaches the PACS.
      const failed = await push(unreadable, noJ2k);
      expect(failed).toMatchObject({ status: 'F', images_sent: 0, images_failed: 1 });
      expect(failed.reason).toMatch(/refused 1\.2\.840\.10008\.1\.2\.4\.90.*could not be transcoded/);
      expect(await plain.rest<string[]>('POST', '/tools/lookup', unreadable.study_uid)).toEqual([]);
    } finally {
      await toPlain.close();
    }
  }, 120_000);
});
