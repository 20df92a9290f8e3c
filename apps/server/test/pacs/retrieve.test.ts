import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, instanceCount, writeStudyFiles } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';
import { addDestination, demoWorld } from '../support/demo-world.js';
import type { NetworkNamespace } from '../support/netns.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import type { Forward } from '../support/netns-forward.js';
import type { Orthanc } from '../support/orthanc.js';
import { storeWithStorescu } from '../support/orthanc.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** Our listener's port as Orthanc (inside the namespace) reaches it. */
const INBOX_INSIDE_PORT = 11112;

/** A generated study of at least two series, written as Part-10 files under `dir`. */
function multiSeriesStudy(dir: string): StudySpec {
  for (let seed = 1500; ; seed++) {
    const [spec] = generateStudySpecs(1, seed, { now: new Date('2026-05-01T00:00:00Z') });
    if (spec!.series.length < 2) continue;
    writeStudyFolder(dir, spec!);
    return spec!;
  }
}

/** The dataset of a Part-10 file: everything after its File Meta Information group. */
function datasetOf(file: Buffer): Buffer {
  const groupLength = file.readUInt32LE(132 + 8);
  return file.subarray(132 + 12 + groupLength);
}

describe.each(DIALECTS)('Retrieve Study from Orthanc on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let ns: NetworkNamespace;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let toUs: Exposed;
  let workDir: string;
  let admin: string;
  let account: string;
  let cardiology: string;
  let destination: string;
  let study: StudySpec;

  beforeAll(async () => {
    server = await startTestServer(dialect, { DESTINATION_ECHO_TICK_MS: '200' });
    peer = await startOrthancPacs('inbox-retrieve-', {
      modalities: { INBOX: ['INBOX', '127.0.0.1', INBOX_INSIDE_PORT] },
    });
    ({ ns, orthanc, toOrthanc, workDir } = peer);
    toUs = await exposeToNamespace(ns, server.dicomPort, INBOX_INSIDE_PORT);
    study = multiSeriesStudy(path.join(workDir, 'study'));
    await storeWithStorescu(ns, orthanc, 'INBOX', path.join(workDir, 'study'));

    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    account = world.account;
    cardiology = world.groups['Cardiology']!.namespace_id;
    destination = await addDestination(server.api, admin, account, {
      name: 'Orthanc',
      aetitle: 'ORTHANC',
      port: toOrthanc.port,
      can_search: 1,
      can_push: 1,
      c_echo_interval: 600,
    });
  }, 120_000);

  afterAll(async () => {
    await toUs?.close();
    await peer?.stop();
    await server?.stop();
  });

  it('echoes a destination with an automatic C-ECHO interval on its own', async () => {
    const echoed = await until(
      () => server.api.call('destination/get', { uuid: destination }, admin),
      (a) => a.body.last_echo !== null,
      10_000,
    );
    expect(echoed.body.last_echo).toMatchObject({ ok: true, reason: null });
  });

  it('echoes the destination and keeps the outcome as its last echo', async () => {
    const echo = await server.api.call('destination/echo', { uuid: destination }, admin);
    expect(echo.body).toMatchObject({ status: 'OK', ok: true, reason: null });
    expect(echo.body.ms).toBeGreaterThan(0);
    const listed = await server.api.call('destination/get', { uuid: destination }, admin);
    expect(listed.body.last_echo).toMatchObject({ ok: true, ms: echo.body.ms });
  });

  it('finds the study with a C-FIND job and retrieves every series into the chosen group, byte for byte', async () => {
    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: study.patientId },
      admin,
    );
    expect(search.body).toMatchObject({ status: 'OK' });
    const found = await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    expect(found.body.state).toBe('done');
    expect(found.body.results).toEqual([
      expect.objectContaining({
        study_uid: study.studyInstanceUid,
        patientid: study.patientId,
        patient_name: study.patientName,
        study_date: study.studyDate,
        source_ae: 'ORTHANC',
      }),
    ]);

    const started = await server.api.call(
      'destination/retrieve',
      { destination_search_id: search.body.uuid, study_uid: study.studyInstanceUid },
      admin,
    );
    expect(started.body).toMatchObject({ status: 'OK', state: 'running', study_uid: study.studyInstanceUid });
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.retrieves[0].state !== 'running',
    );
    const instances = instanceCount(study);
    expect(ended.body.retrieves[0]).toMatchObject({
      state: 'done',
      reason: null,
      completed: instances,
      failed: 0,
    });

    // Every instance is in Cardiology, its dataset exactly what Orthanc holds.
    const db = server.ctx.db.kysely;
    const stored = await db
      .selectFrom('instances')
      .innerJoin('studies', 'studies.uuid', 'instances.study_uuid')
      .select([
        'instances.sop_instance_uid',
        'instances.blob_key',
        'studies.namespace_id',
        'studies.source_ae_title',
      ])
      .where('studies.study_uid', '=', study.studyInstanceUid)
      .execute();
    expect(stored).toHaveLength(instances);
    expect(new Set(stored.map((s) => s.namespace_id))).toEqual(new Set([cardiology]));
    expect(stored[0]!.source_ae_title).toBe('ORTHANC');
    const theirs = await orthanc.rest<string[]>('GET', '/instances');
    expect(theirs).toHaveLength(instances);
    for (const id of theirs) {
      const file = await orthanc.restBytes(`/instances/${id}/file`);
      const tags = await orthanc.rest<{ SOPInstanceUID: string }>('GET', `/instances/${id}/simplified-tags`);
      const ours = stored.find((s) => s.sop_instance_uid === tags.SOPInstanceUID)!;
      const mine = await server.ctx.services.blobs.read(ours.blob_key);
      expect(datasetOf(Buffer.from(mine)).equals(datasetOf(file))).toBe(true);
    }

    // Listed like any other study of the group.
    const listed = await server.api.call('study/list', { 'filter.phi_namespace.equals': cardiology }, admin);
    expect(listed.body.studies.map((s: { study_uid: string }) => s.study_uid)).toContain(
      study.studyInstanceUid,
    );

    // Audited: the search, the retrieve, their outcomes, and the ingest by the requester.
    // The study's own history has the retrieve's end too.
    const events = await db
      .selectFrom('audit_events')
      .select(['action', 'outcome', 'object_type'])
      .where('action', 'in', ['DESTINATION_SEARCH', 'DESTINATION_SEARCH_END', 'RETRIEVE', 'RETRIEVE_END'])
      .orderBy('id')
      .execute();
    expect(events.map((e) => [e.action, e.outcome, e.object_type])).toEqual([
      ['DESTINATION_SEARCH', 'SUCCESS', 'destination'],
      ['DESTINATION_SEARCH_END', 'SUCCESS', 'destination'],
      ['RETRIEVE', 'SUCCESS', 'destination'],
      ['RETRIEVE_END', 'SUCCESS', 'destination'],
      ['RETRIEVE_END', 'SUCCESS', 'study'],
    ]);
  }, 120_000);

  it('retrieves everything a finished search found by its activity_id, as Ambra’s SDK calls it', async () => {
    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: study.patientId },
      admin,
    );
    const activity = search.body.uuid as string;
    const found = await until(
      () => server.api.call('destination/search/get', { uuid: activity }, admin),
      (a) => a.body.state !== 'running',
    );
    const started = await server.api.call('destination/retrieve', { activity_id: activity }, admin);
    expect(started.body.status).toBe('OK');
    expect(started.body.retrieves.map((r: { study_uid: string }) => r.study_uid)).toEqual(
      found.body.results.map((r: { study_uid: string }) => r.study_uid),
    );
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: activity }, admin),
      (a) => a.body.retrieves.every((r: { state: string }) => r.state !== 'running'),
    );
    expect(ended.body.retrieves).toEqual([expect.objectContaining({ state: 'done', failed: 0 })]);

    // Bad inputs: an unknown search, and neither form.
    const unknown = await server.api.call('destination/retrieve', { activity_id: 'no-such-search' }, admin);
    expect(unknown.body).toMatchObject({ status: 'ERROR', error_type: 'NOT_FOUND' });
    const neither = await server.api.call('destination/retrieve', {}, admin);
    expect(neither.body).toMatchObject({ status: 'ERROR', error_type: 'MISSING_FIELDS' });
    const retrieves = await server.api.call('destination/search/get', { uuid: activity }, admin);
    expect(retrieves.body.retrieves).toHaveLength(1);
  }, 120_000);

  it('refuses instances its PACS sends without a retrieve of ours asking, and fails a retrieve Orthanc refuses', async () => {
    const before = await server.ctx.db.kysely.selectFrom('instances').select('uuid').execute();
    // Orthanc sends on its own (a C-STORE, not a C-MOVE of ours): refused, nothing stored.
    const ids = await orthanc.rest<string[]>('GET', '/studies');
    const pushed = await orthanc
      .rest('POST', '/modalities/INBOX/store', JSON.stringify({ Resources: ids, Synchronous: true }))
      .catch((error: unknown) => error);
    expect(pushed).toBeInstanceOf(Error);
    expect(await server.ctx.db.kysely.selectFrom('instances').select('uuid').execute()).toHaveLength(
      before.length,
    );

    // A study Orthanc does not have: its C-MOVE fails, and the retrieve says why.
    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patient_name: study.patientName.split('^')[0]! },
      admin,
    );
    await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    await server.ctx.db.kysely
      .insertInto('destination_search_results')
      .values({
        search_id: search.body.uuid,
        seq: 99,
        study_uid: '1.2.3.4.5.6.7.8.9',
        patient_name: 'GONE^STUDY',
        patient_birth_date: '',
        patient_sex: '',
        patientid: 'GONE',
        accession_number: '',
        study_date: '',
        study_description: '',
        modality: '',
        source_ae: 'ORTHANC',
      })
      .execute();
    await server.api.call(
      'destination/retrieve',
      { destination_search_id: search.body.uuid, study_uid: '1.2.3.4.5.6.7.8.9' },
      admin,
    );
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.retrieves[0]?.state !== 'running',
    );
    expect(ended.body.retrieves[0].state).toBe('failed');
    expect(ended.body.retrieves[0].reason).toMatch(/status|refused|could not/);
  }, 120_000);

  it('matches deliveries from a PACS that omits the Move Originator by the study, and refuses the rest', async () => {
    // Two retrieves running from this destination: only the study decides where an instance goes.
    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: 'NO-SUCH-MRN' },
      admin,
    );
    const db = server.ctx.db.kysely;
    const dir = path.join(workDir, 'fallback');
    const [wanted, other, unasked] = generateStudySpecs(3, 4242, { now: new Date('2026-05-01T00:00:00Z') });
    const user = (await server.api.call('session/user', {}, admin)).body.uuid as string;
    for (const spec of [wanted!, other!]) {
      await db
        .insertInto('destination_retrieves')
        .values({
          uuid: crypto.randomUUID(),
          search_id: search.body.uuid,
          destination_id: destination,
          account_id: account,
          namespace_id: cardiology,
          user_id: user,
          study_uid: spec.studyInstanceUid,
          state: 'running',
          reason: null,
          move_message_id: null,
          completed: null,
          failed: null,
          remaining: null,
          created: Date.now(),
          updated: Date.now(),
        })
        .execute();
    }
    const write = (spec: StudySpec, name: string) => {
      writeStudyFolder(path.join(dir, name), spec);
      return path.join(dir, name);
    };
    // dcmtk's storescu sends no Move Originator; it calls as the destination's AE from its host.
    const storescu = async (folder: string) => (await sendFolder(folder, server.dicomPort, 'ORTHANC')).code;
    expect(await storescu(write(wanted!, 'wanted'))).toBe(0);
    const placed = await db
      .selectFrom('studies')
      .select(['namespace_id', 'image_count'])
      .where('study_uid', '=', wanted!.studyInstanceUid)
      .execute();
    expect(placed).toEqual([{ namespace_id: cardiology, image_count: instanceCount(wanted!) }]);
    // A study no running retrieve asked for: every instance refused, nothing stored.
    expect(await storescu(write(unasked!, 'unasked'))).not.toBe(0);
    expect(
      await db
        .selectFrom('studies')
        .select('uuid')
        .where('study_uid', '=', unasked!.studyInstanceUid)
        .execute(),
    ).toEqual([]);
  }, 60_000);

  it('keeps a study a move is filling out of the list; a move cut short lists what arrived as incomplete, and a retrieve again completes it', async () => {
    // A study big enough that the move is caught in the middle, even on a quiet machine.
    const [big] = generateStudySpecs(1, 9100, { now: new Date('2026-05-01T00:00:00Z') });
    big!.series = big!.series.slice(0, 2);
    big!.series[0]!.instanceCount = 400;
    const dir = path.join(workDir, 'big');
    writeStudyFolder(dir, big!);
    await storeWithStorescu(ns, orthanc, 'INBOX', dir);
    const total = instanceCount(big!);
    const db = server.ctx.db.kysely;
    const listedIn = async () =>
      (
        await server.api.call(
          'study/list',
          { 'filter.phi_namespace.equals': cardiology, 'filter.study_uid.equals': big!.studyInstanceUid },
          admin,
        )
      ).body.studies as { uuid: string; study_uid: string; study_status: string; image_count: number }[];
    const ours = () =>
      db
        .selectFrom('studies')
        .select(['uuid', 'study_status', 'image_count'])
        .where('study_uid', '=', big!.studyInstanceUid)
        .where('namespace_id', '=', cardiology)
        .executeTakeFirst();

    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: big!.patientId },
      admin,
    );
    await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    const retrieve = () =>
      server.api.call(
        'destination/retrieve',
        { destination_search_id: search.body.uuid, study_uid: big!.studyInstanceUid },
        admin,
      );
    expect((await retrieve()).body.state).toBe('running');

    // Orthanc is frozen once some instances are in: the study exists, half-filled, and is not listed.
    const half = await until(ours, (s) => (s?.image_count ?? 0) > 0, 30_000, 5);
    orthanc.process.kill('SIGSTOP');
    let orthancBack = false;
    try {
      const frozen = (await ours())!;
      expect(half!.study_status).toBe('RETRIEVING');
      expect(frozen.image_count).toBeLessThan(total);
      expect(await listedIn()).toEqual([]);

      // Then it dies: the retrieve fails with the reason, and what arrived is listed as incomplete.
      orthanc.process.kill('SIGKILL');
      const failed = await until(
        () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
        (a) => a.body.retrieves[0].state !== 'running',
      );
      expect(failed.body.retrieves[0]).toMatchObject({ state: 'failed', study_uid: big!.studyInstanceUid });
      expect(failed.body.retrieves[0].reason).toBeTruthy();
      const partial = await listedIn();
      expect(partial).toEqual([expect.objectContaining({ study_status: 'INCOMPLETE' })]);
      // What was in flight when it froze may have landed since; never the whole study.
      expect(partial[0]!.image_count).toBeGreaterThanOrEqual(frozen.image_count);
      expect(partial[0]!.image_count).toBeLessThan(total);
      // Its history says so.
      const history = await server.api.call('audit/object', { uuid: partial[0]!.uuid }, admin);
      expect(history.body.events).toContainEqual(
        expect.objectContaining({
          action: 'RETRIEVE_END',
          outcome: 'FAILURE',
          detail: expect.objectContaining({
            destination_name: 'Orthanc',
            reason: failed.body.retrieves[0].reason,
          }),
        }),
      );

      // Orthanc back, a retrieve again completes the same study: every instance once, listed as NEW.
      await orthanc.restart();
      orthancBack = true;
      expect((await retrieve()).body.state).toBe('running');
      const done = await until(
        () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
        (a) => a.body.retrieves.every((r: { state: string }) => r.state !== 'running'),
      );
      expect(done.body.retrieves.map((r: { state: string }) => r.state).sort()).toEqual(['done', 'failed']);
      const complete = await listedIn();
      expect(complete).toEqual([
        expect.objectContaining({ uuid: partial[0]!.uuid, study_status: 'NEW', image_count: total }),
      ]);
      const instances = await db
        .selectFrom('instances')
        .select('sop_instance_uid')
        .where('study_uuid', '=', partial[0]!.uuid)
        .execute();
      expect(new Set(instances.map((i) => i.sop_instance_uid)).size).toBe(total);
      expect(instances).toHaveLength(total);
    } finally {
      // A failure above must not leave the next tests a frozen or dead PACS.
      if (!orthancBack) {
        const child = orthanc.process;
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once('exit', r));
          child.kill('SIGKILL');
          await exited;
        }
        await orthanc.restart();
      }
    }
  }, 180_000);

  it('lists what arrived as incomplete, with the reason, when the PACS ends the move on an instance we refuse', async () => {
    const [spec] = generateStudySpecs(1, 9300, { now: new Date('2026-05-01T00:00:00Z') });
    spec!.series = spec!.series.slice(0, 1);
    spec!.series[0]!.instanceCount = 4;
    const dir = path.join(workDir, 'refused');
    fs.mkdirSync(dir, { recursive: true });
    const files = writeStudyFiles(spec!).map((file) => {
      const name = path.join(dir, `${file.sopInstanceUid}.dcm`);
      fs.writeFileSync(name, file.bytes);
      return name;
    });
    // One instance of a SOP class no storage service has: our listener refuses its context, so
    // Orthanc's sub-operation for it fails while the others are stored.
    const odd = files[0]!;
    await ns.run('dcmodify', ['-nb', '-m', '(0008,0016)=1.2.826.0.1.3680043.2.1143.999.1', odd]);
    await ns.run('curl', [
      '-s',
      '-f',
      '-X',
      'POST',
      '--data-binary',
      `@${odd}`,
      'http://127.0.0.1:8042/instances',
    ]);
    fs.rmSync(odd);
    await storeWithStorescu(ns, orthanc, 'INBOX', dir);

    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: spec!.patientId },
      admin,
    );
    await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    await server.api.call(
      'destination/retrieve',
      { destination_search_id: search.body.uuid, study_uid: spec!.studyInstanceUid },
      admin,
    );
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.retrieves[0]?.state !== 'running',
    );
    // Orthanc ends such a move with C000 and counts the three it delivered, not the one that failed.
    expect(ended.body.retrieves[0]).toMatchObject({ state: 'failed', completed: 3 });
    expect(ended.body.retrieves[0].reason).toMatch(
      /^the destination ended the retrieve part-way, after 3 instance\(s\) \(status C000/,
    );
    const listed = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': cardiology, 'filter.study_uid.equals': spec!.studyInstanceUid },
      admin,
    );
    expect(listed.body.studies).toEqual([
      expect.objectContaining({ study_status: 'INCOMPLETE', image_count: 3 }),
    ]);
  }, 120_000);
  it('reports each instance once when a run taken over after a crash moves the study again', async () => {
    const [spec] = generateStudySpecs(1, 9400, { now: new Date('2026-05-01T00:00:00Z') });
    spec!.series = spec!.series.slice(0, 1);
    spec!.series[0]!.instanceCount = 80;
    const dir = path.join(workDir, 'taken-over');
    writeStudyFolder(dir, spec!);
    await storeWithStorescu(ns, orthanc, 'INBOX', dir);
    const search = await server.api.call(
      'destination/search',
      { uuid: destination, copy_to: cardiology, patientid: spec!.patientId },
      admin,
    );
    await until(
      () => server.api.call('destination/search/get', { uuid: search.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    const started = await server.api.call(
      'destination/retrieve',
      { destination_search_id: search.body.uuid, study_uid: spec!.studyInstanceUid },
      admin,
    );
    const retrieves = () =>
      server.api
        .call('destination/search/get', { uuid: search.body.uuid }, admin)
        .then((a) => a.body.retrieves as { state: string; completed: number; failed: number }[]);
    expect((await until(retrieves, (r) => r[0]!.state !== 'running'))[0]).toMatchObject({
      state: 'done',
      completed: 80,
    });

    // The run died after the study arrived, before it recorded the end: the retrieve is still
    // running, the study filling, and the job's lease ran out. The runner takes the job over and
    // Orthanc sends all 80 again.
    const db = server.ctx.db.kysely;
    await db
      .updateTable('destination_retrieves')
      .set({ state: 'running', completed: null, failed: null, remaining: null })
      .where('uuid', '=', started.body.uuid)
      .execute();
    await db
      .updateTable('studies')
      .set({ study_status: 'RETRIEVING' })
      .where('namespace_id', '=', cardiology)
      .where('study_uid', '=', spec!.studyInstanceUid)
      .execute();
    const taken = await db
      .updateTable('jobs')
      .set({ status: 'running', locked_until: 1 })
      .where('dedupe_key', '=', `retrieve:${started.body.uuid}`)
      .executeTakeFirst();
    expect(Number(taken.numUpdatedRows)).toBe(1);
    server.ctx.services.jobRunner.kick();

    const again = await until(retrieves, (r) => r[0]!.state !== 'running');
    expect(again[0]).toMatchObject({ state: 'done', completed: 80, failed: 0 });
    const job = await db
      .selectFrom('jobs')
      .select(['status', 'attempts'])
      .where('dedupe_key', '=', `retrieve:${started.body.uuid}`)
      .executeTakeFirstOrThrow();
    expect(job).toEqual({ status: 'done', attempts: 2 });
    const listed = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': cardiology, 'filter.study_uid.equals': spec!.studyInstanceUid },
      admin,
    );
    expect(listed.body.studies).toEqual([expect.objectContaining({ study_status: 'NEW', image_count: 80 })]);
  }, 120_000);
});
