import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';
import type { Forward } from '../support/netns-forward.js';
import type { Orthanc } from '../support/orthanc.js';
import { storeWithStorescu } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import { writeStudyFolder } from '../support/study-folder.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  addDestination,
  demoWorld,
  gatekeeperConfig,
  nominate,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import { smallestStudyIn } from '../support/studies.js';

/**
 * Search Patient (the C-Find flow of processing a nomination): study/patient/search starts a C-FIND
 * of the gatekeeper group's query destination (Orthanc in a private network namespace), followed
 * with destination/search/get.
 */
describe.each(DIALECTS)('study/patient/search (Orthanc as the PACS) on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let orthanc: Orthanc;
  let toOrthanc: Forward;
  let workDir: string;
  let admin: string;
  let gatekeeper: string;
  let intake: { uuid: string; namespace_id: string };
  let pacs: string;
  let copy: string;
  let cardiologyStudy: string;
  let stored: StudySpec;
  let baseConfig: Record<string, unknown>;

  const db = () => server.ctx.db.kysely;
  const configure = (change: Record<string, unknown>) =>
    setGatekeeperConfig(server.api, admin, intake.uuid, { ...baseConfig, ...change });
  const searchPatient = (params: Record<string, string>, sid = gatekeeper) =>
    server.api.call('study/patient/search', params, sid).then((r) => r.body);
  const searches = async () =>
    (await db().selectFrom('destination_searches').select('uuid').execute()).length;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    peer = await startOrthancPacs('inbox-patient-search-');
    ({ orthanc, toOrthanc, workDir } = peer);
    [stored] = generateStudySpecs(1, 4242, { now: new Date('2026-05-01T00:00:00Z') }) as [StudySpec];
    writeStudyFolder(path.join(workDir, 'study'), stored);
    await storeWithStorescu(peer.ns, orthanc, 'INBOX', path.join(workDir, 'study'));

    const world = await demoWorld(server, ['admin', 'gatekeeper', 'clinician']);
    ({ admin, gatekeeper } = world.sid);
    intake = world.groups['PACS Intake']!;
    pacs = await addDestination(server.api, admin, world.account, {
      name: 'Hospital PACS',
      aetitle: orthanc.aeTitle,
      port: toOrthanc.port,
      can_search: 1,
      can_push: 1,
    });
    baseConfig = await gatekeeperConfig(server.api, admin, intake.uuid);
    await configure({ destinations: [pacs], pacsPromotePreference: 'C-Find', queryDestination: pacs });

    cardiologyStudy = (await smallestStudyIn(server.ctx.db, 'Cardiology')).uuid;
    copy = await nominate(server.api, world.sid.clinician, cardiologyStudy, intake.uuid);
    expect(copy).toBeTruthy();
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await server?.stop();
  });

  it("finds the patient's exams at the group's C-Find destination, by MRN and by name", async () => {
    const started = await searchPatient({ uuid: copy, patientid: stored.patientId });
    expect(started).toMatchObject({ status: 'OK', uuid: expect.any(String) });
    const done = await until(
      () => server.api.call('destination/search/get', { uuid: started.uuid }, gatekeeper),
      (r) => r.body.state !== 'running',
    );
    expect(done.body).toMatchObject({ status: 'OK', destination_id: pacs, state: 'done', reason: null });
    expect(done.body.results).toMatchObject([
      {
        study_uid: stored.studyInstanceUid,
        patientid: stored.patientId,
        accession_number: stored.accessionNumber,
      },
    ]);

    const family = stored.patientName.split('^')[0]!;
    const byName = await searchPatient({ uuid: copy, patient_name: family });
    const named = await until(
      () => server.api.call('destination/search/get', { uuid: byName.uuid }, gatekeeper),
      (r) => r.body.state !== 'running',
    );
    expect(named.body.results.map((r: { study_uid: string }) => r.study_uid)).toContain(
      stored.studyInstanceUid,
    );

    const nobody = await searchPatient({ uuid: copy, patientid: 'NO-SUCH-MRN' });
    const none = await until(
      () => server.api.call('destination/search/get', { uuid: nobody.uuid }, gatekeeper),
      (r) => r.body.state !== 'running',
    );
    expect(none.body).toMatchObject({ state: 'done', results: [] });
  });

  it('refuses a missing filter, a caller who may not process, a group that is no gatekeeper or has no C-Find destination; starts nothing', async () => {
    const before = await searches();
    expect(await searchPatient({ uuid: copy })).toMatchObject({
      error_type: 'MISSING_FIELDS',
      error_subtype: 'patientid',
    });
    expect(await searchPatient({ uuid: copy, patientid: 'BAD\\MRN' })).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'patientid',
    });
    // The clinician nominated it but does not see the gatekeeper's copy.
    const clinician = await server.api.login('clinician@demo.local');
    expect(await searchPatient({ uuid: copy, patientid: 'X' }, clinician)).toMatchObject({
      error_type: 'NOT_FOUND',
    });
    // The admin may process anything, but Cardiology is no gatekeeper group.
    expect(await searchPatient({ uuid: cardiologyStudy, patientid: 'X' }, admin)).toMatchObject({
      error_type: 'NOT_FOUND',
      error_subtype: 'gatekeeper',
    });
    await configure({ destinations: [pacs], pacsPromotePreference: 'NONE', queryDestination: null });
    try {
      expect(await searchPatient({ uuid: copy, patientid: 'X' })).toMatchObject({
        error_type: 'NOT_FOUND',
        error_subtype: 'query_destination',
      });
    } finally {
      await configure({ destinations: [pacs], pacsPromotePreference: 'C-Find', queryDestination: pacs });
    }
    expect(await searches()).toBe(before);
  });

  it('lets a gatekeeper without destination_search follow the search they started, and only theirs', async () => {
    const others = await searchPatient({ uuid: copy, patientid: stored.patientId });
    const gatekeeperId = (await server.api.call('user/get', {}, gatekeeper)).body.uuid as string;
    const membership = () =>
      db()
        .updateTable('group_members')
        .where('group_id', '=', intake.uuid)
        .where('user_id', '=', gatekeeperId);
    const { permissions } = await db()
      .selectFrom('group_members')
      .select('permissions')
      .where('group_id', '=', intake.uuid)
      .where('user_id', '=', gatekeeperId)
      .executeTakeFirstOrThrow();
    // Someone else started this one.
    const adminId = (await server.api.call('user/get', {}, admin)).body.uuid as string;
    await db()
      .updateTable('destination_searches')
      .set({ user_id: adminId })
      .where('uuid', '=', others.uuid)
      .execute();
    const granted = JSON.parse(permissions) as string[];
    await membership()
      .set({
        permissions: JSON.stringify(granted.filter((p) => p !== 'destination_search')),
        // Granted on the membership itself, instead of through the demo world's PACS coordinator role.
        role_id: null,
      })
      .execute();
    try {
      const own = await searchPatient({ uuid: copy, patientid: stored.patientId });
      expect(own.status).toBe('OK');
      const followed = await until(
        () => server.api.call('destination/search/get', { uuid: own.uuid }, gatekeeper),
        (r) => r.body.state !== 'running',
      );
      expect(followed.body).toMatchObject({
        state: 'done',
        results: [{ study_uid: stored.studyInstanceUid }],
      });
      expect(
        (await server.api.call('destination/search/get', { uuid: others.uuid }, gatekeeper)).body,
      ).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'destination_search' });
      // Retrieving still needs destination_search.
      expect(
        (
          await server.api.call(
            'destination/retrieve',
            { destination_search_id: own.uuid, study_uid: stored.studyInstanceUid },
            gatekeeper,
          )
        ).body,
      ).toMatchObject({ error_type: 'NOT_FOUND' });
    } finally {
      await membership().set({ permissions }).execute();
    }
  });
});
