import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, instanceCount } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';
import { accountIdOf, addDestination, firstAccountOf } from '../support/demo-world.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import { storeWithStorescu } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import { writeStudyFolder } from '../support/study-folder.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** Our listener's port as Orthanc (inside its namespace) reaches it. */
const INBOX_INSIDE_PORT = 11112;

/**
 * Decision 0054: each account calls its PACS as its own AE title, and a PACS target belongs to one
 * account. Orthanc here is Demo Hospital's PACS and knows only Demo Hospital's AE title (INBOX) and
 * one title Partner Clinic's destination may call as once shared (PARTNER_CT); it answers no echo
 * from an AE it does not know, so an association under another account's title is refused.
 */
describe.each(DIALECTS)("each account's own DICOM identity, against Orthanc on %s", (dialect) => {
  let server: TestServer;
  let pacs: OrthancPacs;
  let toUs: Exposed;
  let study: StudySpec;
  let admin: string;
  let partner: string;
  let demoAccount: string;
  let partnerAccount: string;
  let demoPacs: string;

  const call = (route: string, params: Record<string, string | number>, sid: string) =>
    server.api.call(route, params, sid).then((a) => a.body);
  const callingAet = async (account: string, sid: string) =>
    (await call('account/get', { uuid: account }, sid)).calling_aet as string;
  const destinationCount = async () =>
    (await server.ctx.db.kysely.selectFrom('destinations').select('uuid').execute()).length;
  const nodeCount = async () =>
    (await server.ctx.db.kysely.selectFrom('dicom_nodes').select('uuid').execute()).length;

  /** A search of `destination` for the study, into `group`, run to its end. */
  const search = async (sid: string, destination: string, group: string) => {
    const started = await call(
      'destination/search',
      { uuid: destination, copy_to: group, patientid: study.patientId },
      sid,
    );
    expect(started).toMatchObject({ status: 'OK' });
    return (await until(
      () => call('destination/search/get', { uuid: started.uuid }, sid),
      (s) => s.state !== 'running',
    )) as { uuid: string; state: string; reason: string | null; results: { study_uid: string }[] };
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    pacs = await startOrthancPacs('inbox-identity-', {
      modalities: {
        INBOX: ['INBOX', '127.0.0.1', INBOX_INSIDE_PORT],
        PARTNER_CT: ['PARTNER_CT', '127.0.0.1', INBOX_INSIDE_PORT],
      },
      config: { DicomAlwaysAllowEcho: false },
    });
    toUs = await exposeToNamespace(pacs.ns, server.dicomPort, INBOX_INSIDE_PORT);
    const [spec] = generateStudySpecs(1, 5400, { now: new Date('2026-05-01T00:00:00Z') });
    study = spec!;
    writeStudyFolder(path.join(pacs.workDir, 'study'), study);
    await storeWithStorescu(pacs.ns, pacs.orthanc, 'INBOX', path.join(pacs.workDir, 'study'));

    admin = await server.api.login('admin@demo.local');
    partner = await server.api.login('partner@demo.local');
    demoAccount = await firstAccountOf(server.api, admin);
    partnerAccount = await accountIdOf(server.ctx.db, 'Partner Clinic');
    demoPacs = await addDestination(server.api, admin, demoAccount, {
      name: 'Demo PACS',
      aetitle: 'ORTHANC',
      port: pacs.toOrthanc.port,
      can_search: 1,
      can_push: 1,
    });
  }, 120_000);

  afterAll(async () => {
    await toUs?.close();
    await pacs?.stop();
    await server?.stop();
  });

  it('gives each account its own calling AE title, unique in any case or padding', async () => {
    // Demo Hospital, the first account, keeps the server's AE title: its PACS configuration stands.
    expect(await callingAet(demoAccount, admin)).toBe('INBOX');
    expect(await callingAet(partnerAccount, partner)).toBe('PARTNER_CLINIC');

    const refused = async (sid: string, account: string, value: string) => {
      const answer = await call('account/set', { uuid: account, 'settings.calling_aet': value }, sid);
      expect([answer.error_type, answer.error_subtype]).toEqual(['INVALID_FIELD', 'settings.calling_aet']);
    };
    for (const taken of ['INBOX', 'inbox', ' Inbox  ']) await refused(partner, partnerAccount, taken);
    await refused(admin, demoAccount, 'partner_clinic');
    // Our listener's own local AE title (the demo's PACS Archive) is not for calling as either.
    await refused(partner, partnerAccount, 'pacs_archive');
    for (const bad of ['', '   ', 'A\\B', 'X'.repeat(17)]) await refused(partner, partnerAccount, bad);
    // Nor may Partner's admin change Demo Hospital's.
    const outsider = await call(
      'account/set',
      { uuid: demoAccount, 'settings.calling_aet': 'MINE' },
      partner,
    );
    expect(outsider.error_type).toBe('NOT_FOUND');
    expect(await callingAet(demoAccount, admin)).toBe('INBOX');
    expect(await callingAet(partnerAccount, partner)).toBe('PARTNER_CLINIC');

    // Its admin may choose another, padding trimmed; and back.
    const set = await call(
      'account/set',
      { uuid: partnerAccount, 'settings.calling_aet': ' CLINIC_Q ' },
      partner,
    );
    expect(set).toMatchObject({ status: 'OK', calling_aet: 'CLINIC_Q' });
    await call('account/set', { uuid: partnerAccount, 'settings.calling_aet': 'PARTNER_CLINIC' }, partner);
    expect(await callingAet(partnerAccount, partner)).toBe('PARTNER_CLINIC');
  });

  it('derives a missing title from the account name: upper case, 16 characters at most, unique', async () => {
    const created = Date.now() + 1;
    const account = async (name: string) => {
      const uuid = randomUUID();
      await server.ctx.repos.accounts.createAccount({
        uuid,
        name,
        namespace_id: randomUUID(),
        vanity: null,
        share_code: null,
        created,
      });
      return server.ctx.services.callingAes.ofAccount(uuid);
    };
    expect(await account('Saint-Éloi Hospital of the North')).toBe('SAINT_ELOI_HOSPI');
    expect(await account('saint eloi hospital, north')).toBe('SAINT_ELOI_HOS_2');
    expect(await account('Partner Clinic')).toBe('PARTNER_CLINIC_2');
    expect(await account('!!!')).toBe('ACCOUNT');
  });

  it("refuses Partner Clinic Demo Hospital's PACS target in any case, unless a system administrator shares it", async () => {
    const before = { destinations: await destinationCount(), nodes: await nodeCount() };
    const target = {
      account_id: partnerAccount,
      name: 'Their PACS',
      address: '127.0.0.1',
      port: String(pacs.toOrthanc.port),
      can_search: '1',
    };
    for (const aetitle of ['ORTHANC', 'orthanc', ' Orthanc ']) {
      const answer = await call('destination/add', { ...target, aetitle }, partner);
      expect([answer.error_type, answer.error_subtype]).toEqual(['INVALID_FIELD', 'aetitle']);
    }
    // Nor may it register a sender under that PACS's AE title in another case.
    const referrals = (await server.api.groups(partner))[0]!.uuid;
    const sender = await call(
      'dicom/node/add',
      {
        account_id: partnerAccount,
        ae_title: 'Orthanc',
        host: '127.0.0.1',
        group_id: referrals,
        name: 'Fake',
      },
      partner,
    );
    expect([sender.error_type, sender.error_subtype]).toEqual(['INVALID_FIELD', 'ae_title']);
    // Only a system administrator may share a target; Partner's admin is not one.
    const selfShared = await call(
      'destination/add',
      { ...target, aetitle: 'orthanc', shared_target: '1' },
      partner,
    );
    expect([selfShared.error_type, selfShared.error_subtype]).toEqual(['INVALID_FIELD', 'shared_target']);
    const notShared = await call('destination/set', { uuid: demoPacs, shared_target: '1' }, partner);
    expect(notShared.error_type).toBe('NOT_FOUND');
    expect({ destinations: await destinationCount(), nodes: await nodeCount() }).toEqual(before);

    // Demo Hospital's admin is also the system administrator: sharing the target lets Partner in.
    expect(await call('destination/set', { uuid: demoPacs, shared_target: '1' }, admin)).toMatchObject({
      status: 'OK',
      shared_target: 1,
    });
    const added = await call('destination/add', { ...target, aetitle: 'orthanc' }, partner);
    expect(added).toMatchObject({ status: 'OK', aetitle: 'orthanc', shared_target: 0, calling_aet: null });
    // Orthanc delivers through the one sender registered for its AE title.
    expect(await nodeCount()).toBe(before.nodes);
  });

  it("calls Orthanc as each account's own AE title: Orthanc, knowing Demo Hospital's only, refuses Partner Clinic", async () => {
    const partnerPacs = (
      await call('destination/list', { account_id: partnerAccount }, partner)
    ).destinations.find((d: { name: string }) => d.name === 'Their PACS').uuid as string;
    const cardiology = await server.api.namespaceOf(admin, 'Cardiology');
    const referrals = (await server.api.groups(partner))[0]!.namespace_id;

    expect(await call('destination/echo', { uuid: demoPacs }, admin)).toMatchObject({
      ok: true,
      reason: null,
    });
    expect(await call('destination/echo', { uuid: partnerPacs }, partner)).toMatchObject({
      ok: false,
      reason: 'no DICOM answer',
    });
    const theirs = await search(partner, partnerPacs, referrals);
    expect(theirs).toMatchObject({ state: 'failed', reason: 'no DICOM answer', results: [] });
    const ours = await search(admin, demoPacs, cardiology);
    expect(ours.state).toBe('done');
    expect(ours.results.map((r) => r.study_uid)).toEqual([study.studyInstanceUid]);

    // Demo Hospital retrieves: Orthanc moves the study to INBOX, our listener files it in Cardiology.
    await call(
      'destination/retrieve',
      { destination_search_id: ours.uuid, study_uid: study.studyInstanceUid },
      admin,
    );
    const ended = await until(
      () => call('destination/search/get', { uuid: ours.uuid }, admin),
      (s) => s.retrieves[0].state !== 'running',
    );
    expect(ended.retrieves[0]).toMatchObject({ state: 'done', completed: instanceCount(study) });
  }, 120_000);

  it("calls as a destination's own AE title, and files what Orthanc moves to it in that destination's account", async () => {
    const partnerPacs = (
      await call('destination/list', { account_id: partnerAccount }, partner)
    ).destinations.find((d: { name: string }) => d.name === 'Their PACS').uuid as string;
    const referrals = (await server.api.groups(partner))[0]!.namespace_id;
    // Another account's title, in any case, is not a destination's to take.
    const taken = await call('destination/set', { uuid: partnerPacs, calling_aet: 'inbox' }, partner);
    expect([taken.error_type, taken.error_subtype]).toEqual(['INVALID_FIELD', 'calling_aet']);
    expect(
      await call('destination/set', { uuid: partnerPacs, calling_aet: 'PARTNER_CT' }, partner),
    ).toMatchObject({
      status: 'OK',
      calling_aet: 'PARTNER_CT',
    });
    expect(await call('destination/echo', { uuid: partnerPacs }, partner)).toMatchObject({ ok: true });

    const found = await search(partner, partnerPacs, referrals);
    expect(found.state).toBe('done');
    await call(
      'destination/retrieve',
      { destination_search_id: found.uuid, study_uid: study.studyInstanceUid },
      partner,
    );
    const ended = await until(
      () => call('destination/search/get', { uuid: found.uuid }, partner),
      (s) => s.retrieves[0].state !== 'running',
    );
    expect(ended.retrieves[0]).toMatchObject({ state: 'done', completed: instanceCount(study) });
    const listed = await call('study/list', { 'filter.phi_namespace.equals': referrals }, partner);
    expect(listed.studies.map((s: { study_uid: string }) => s.study_uid)).toContain(study.studyInstanceUid);
  }, 120_000);
});
