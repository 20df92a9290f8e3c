import path from 'node:path';
import { WORKLIST_SEARCH_CAP } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDestination, demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import type { WorklistEntry, WorklistServer } from '../support/wlmscpfs.js';
import { ADA_MR_BRAIN, DCMTK_EXAMPLE_DUMPS, startWorklistServer, UTF8_HEAD_CT } from '../support/wlmscpfs.js';

/** Orders of our own, beside dcmtk's examples; BULK^ONE has one more than a search keeps. */
const ENTRIES: WorklistEntry[] = [
  { ...ADA_MR_BRAIN, procedureId: 'RP-ADA' },
  {
    accession: 'MWL-2',
    name: 'LOVELACE^BYRON',
    id: 'MRN-BYRON',
    birthDate: '19700101',
    sex: 'M',
    modality: 'CT',
    date: '20261128',
    description: 'CT CHEST',
  },
  { ...UTF8_HEAD_CT, date: '20261201' },
  ...Array.from({ length: WORKLIST_SEARCH_CAP + 1 }, (_, i) => ({
    accession: `BULK-${i}`,
    name: 'BULK^ONE',
    id: 'MRN-BULK',
    birthDate: '19500101',
    sex: 'O',
    modality: 'US',
    date: '20261202',
    description: 'US ABDOMEN',
  })),
];

/** Three VIVALDI^ANTONIO orders of dcmtk's example worklist, in ISO_IR 100. */
const EXAMPLES = ['wklist1', 'wklist2', 'wklist3', 'wklist4'].map((f) =>
  path.join(DCMTK_EXAMPLE_DUMPS, `${f}.dump`),
);

/**
 * destination/search/mwl (Ambra's call): a Modality Worklist C-FIND of a destination that takes
 * one (can_search_mwl), run as a destination search job and polled with destination/search/get,
 * against dcmtk's wlmscpfs in a private network namespace.
 */
describe.each(DIALECTS)('destination/search/mwl against wlmscpfs on %s', (dialect) => {
  let server: TestServer;
  let worklist: WorklistServer;
  let admin: string;
  let gatekeeper: string;
  let clinician: string;
  let partner: string;
  let account: string;
  let intake: string;
  let emergency: string;
  let referrals: string;
  let mwl: string;
  let noMwl: string;
  let dead: string;
  let partnerMwl: string;

  beforeAll(async () => {
    worklist = await startWorklistServer(ENTRIES, 'WLSCP', {
      dumps: EXAMPLES,
      alsoAs: ['WLSCP_NO_MWL', 'WLSCP_PARTNER'],
    });
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'gatekeeper', 'clinician', 'partner']);
    ({ admin, gatekeeper, clinician, partner } = world.sid);
    account = world.account;
    intake = world.groups['PACS Intake']!.namespace_id;
    emergency = world.groups['Emergency']!.namespace_id;
    const partnerAccount = (await server.api.call('account/list', {}, partner)).body.accounts[0].uuid;
    referrals = (await server.api.groups(partner)).find((g) => g.name === 'Referrals')!.namespace_id;
    // One AE title per destination: a PACS target belongs to one destination of one account.
    mwl = await addDestination(server.api, admin, account, {
      name: 'Hospital worklist',
      aetitle: worklist.aeTitle,
      port: worklist.port,
      can_search: 0,
      can_search_mwl: 1,
      can_push: 0,
    });
    noMwl = await addDestination(server.api, admin, account, {
      name: 'Same peer, no worklist',
      aetitle: 'WLSCP_NO_MWL',
      port: worklist.port,
      can_search: 1,
      can_search_mwl: 0,
      can_push: 0,
    });
    // Nothing listens at port 9 on this machine.
    dead = await addDestination(server.api, admin, account, {
      name: 'Dead worklist',
      aetitle: 'DEAD',
      port: 9,
      can_search: 0,
      can_search_mwl: 1,
      can_push: 0,
    });
    partnerMwl = await addDestination(server.api, partner, partnerAccount, {
      name: 'Partner worklist',
      aetitle: 'WLSCP_PARTNER',
      port: worklist.port,
      can_search: 0,
      can_search_mwl: 1,
      can_push: 0,
    });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await worklist?.stop();
  });

  const searchMwl = (params: Record<string, string>, sid = gatekeeper) =>
    server.api.call('destination/search/mwl', { uuid: mwl, namespace_id: intake, ...params }, sid);
  /** Starts a search and polls it until it ends. */
  const found = async (params: Record<string, string>, sid = gatekeeper) => {
    const started = await searchMwl(params, sid);
    expect(started.body, JSON.stringify(started.body)).toMatchObject({ status: 'OK' });
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: started.body.uuid }, sid),
      (a) => a.body.state !== 'running',
      30_000,
    );
    return ended.body;
  };
  const accessions = (body: { items: { accession_number: string }[] }) =>
    body.items.map((i) => i.accession_number).sort();
  const searchCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('destination_searches')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('answers the worklist items a name matches from its start, with every field of the order', async () => {
    const body = await found({ patient_name: 'LOVELACE' });
    expect(body).toMatchObject({
      status: 'OK',
      destination_id: mwl,
      kind: 'mwl',
      state: 'done',
      reason: null,
      truncated: false,
    });
    expect(accessions(body)).toEqual(['MWL-1', 'MWL-2']);
    expect(body.items.find((i: { accession_number: string }) => i.accession_number === 'MWL-1')).toEqual({
      accession_number: 'MWL-1',
      patient_name: 'LOVELACE^ADA',
      patientid: 'MRN-MWL',
      patient_birth_date: '19801210',
      patient_sex: 'F',
      referring_physician: 'HOUSE^GREGORY',
      order_number: 'RP-ADA',
      requested_procedure: 'MR BRAIN',
      study_uid: '1.2.826.0.1.3680043.2.1125.77.2',
      modality: 'MR',
      scheduled_date: '20261127',
      scheduled_time: '093000',
      scheduled_station_ae: 'MOD01',
    });
    // A study search's own fields are not part of a worklist search's answer.
    expect(body.results).toBeUndefined();
    expect(body.retrieves).toBeUndefined();
  });

  it('matches by MRN, accession number, order number, modality, scheduled date or range, birth date and sex', async () => {
    expect(accessions(await found({ patientid: 'MRN-BYRON' }))).toEqual(['MWL-2']);
    expect(accessions(await found({ accession_number: 'MWL-3' }))).toEqual(['MWL-3']);
    expect(accessions(await found({ order_number: 'RP-ADA' }))).toEqual(['MWL-1']);
    expect(accessions(await found({ patient_name: 'LOVELACE', modality: 'ct' }))).toEqual(['MWL-2']);
    expect(accessions(await found({ order_date: '2026-11-28' }))).toEqual(['MWL-2']);
    expect(accessions(await found({ order_date: '20261127-20261201' }))).toEqual(['MWL-1', 'MWL-2', 'MWL-3']);
    expect(accessions(await found({ patient_birth_date: '1960-05-05' }))).toEqual(['MWL-3']);
    expect(accessions(await found({ patient_name: 'LOVELACE', patient_sex: 'f' }))).toEqual(['MWL-1']);
    const none = await found({ patientid: 'NOBODY' });
    expect(none).toMatchObject({ state: 'done', items: [], truncated: false });
  });

  it("decodes the worklist's character sets: UTF-8 and dcmtk's Latin-1 examples", async () => {
    const utf8 = await found({ accession_number: 'MWL-3' });
    expect(utf8.items).toMatchObject([{ patient_name: 'MÜLLER^JÖRG', requested_procedure: 'Schädel CT' }]);
    const vivaldi = await found({ patient_name: 'VIVALDI' });
    expect(vivaldi.items).toHaveLength(3);
    expect(vivaldi.items.map((i: { modality: string }) => i.modality).sort()).toEqual(['CR', 'CT', 'MR']);
    expect(vivaldi.items.find((i: { modality: string }) => i.modality === 'MR')).toMatchObject({
      patient_name: 'VIVALDI^ANTONIO',
      patientid: 'AV35674',
      order_number: 'RP454G234',
      scheduled_date: '19951015',
      scheduled_time: '085607',
    });
  });

  it('keeps at most WORKLIST_SEARCH_CAP items and says the search was cut short', async () => {
    const body = await found({ patient_name: 'BULK' });
    expect(body.state).toBe('done');
    expect(body.truncated).toBe(true);
    expect(body.items).toHaveLength(WORKLIST_SEARCH_CAP);
    expect(body.reason).toMatch(String(WORKLIST_SEARCH_CAP));
  });

  it("searches for a study (Ambra's study_id) in the study's group, followed only there", async () => {
    const studies = await server.api.call('study/list', { 'filter.phi_namespace.equals': emergency }, admin);
    const study = studies.body.studies[0].uuid as string;
    const started = await server.api.call(
      'destination/search/mwl',
      { uuid: mwl, study_id: study, accession_number: 'MWL-1' },
      admin,
    );
    expect(started.body).toMatchObject({ status: 'OK' });
    const ended = await until(
      () => server.api.call('destination/search/get', { uuid: started.body.uuid }, admin),
      (a) => a.body.state !== 'running',
    );
    expect(accessions(ended.body)).toEqual(['MWL-1']);
    const row = await server.ctx.db.kysely
      .selectFrom('destination_searches')
      .select(['namespace_id', 'kind'])
      .where('uuid', '=', started.body.uuid)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ namespace_id: emergency, kind: 'mwl' });
    // The clinician sees the study but does not search worklists there; the gatekeeper is not in it.
    for (const sid of [clinician, gatekeeper, partner]) {
      const other = await server.api.call('destination/search/get', { uuid: started.body.uuid }, sid);
      expect(other.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'destination_search' });
    }
    const refused = await server.api.call(
      'destination/search/mwl',
      { uuid: mwl, study_id: study, accession_number: 'MWL-1' },
      clinician,
    );
    expect(refused.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'namespace' });
    const unknown = await server.api.call(
      'destination/search/mwl',
      { uuid: mwl, study_id: '00000000-0000-4000-8000-000000000000', accession_number: 'MWL-1' },
      admin,
    );
    expect(unknown.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'study' });
  });

  it('refuses bad input with a clear error and starts nothing', async () => {
    const before = await searchCount();
    const cases: [Record<string, string>, string, string][] = [
      [{}, 'MISSING_FIELDS', 'criterion'],
      [{ modality: 'All' }, 'MISSING_FIELDS', 'criterion'],
      [{ patient_name: 'A\\B' }, 'INVALID_FIELD', 'patient_name'],
      [{ patientid: 'x'.repeat(65) }, 'INVALID_FIELD', 'patientid'],
      [{ accession_number: 'A\nB' }, 'INVALID_FIELD', 'accession_number'],
      [{ order_number: 'R\u0000P' }, 'INVALID_FIELD', 'order_number'],
      [{ order_date: '2026-13-01' }, 'INVALID_FIELD', 'order_date'],
      [{ order_date: '20261202-20261201' }, 'INVALID_FIELD', 'order_date'],
      [{ order_date: 'tomorrow' }, 'INVALID_FIELD', 'order_date'],
      [{ patient_birth_date: '1960-02-30' }, 'INVALID_FIELD', 'patient_birth_date'],
      [{ patient_sex: 'X' }, 'INVALID_FIELD', 'patient_sex'],
      [{ modality: 'C T' }, 'INVALID_FIELD', 'modality'],
    ];
    for (const [params, type, subtype] of cases) {
      const answer = await searchMwl(params);
      expect(answer.status, JSON.stringify(params)).toBe(412);
      expect(answer.body, JSON.stringify(params)).toMatchObject({ error_type: type, error_subtype: subtype });
    }
    const noUuid = await server.api.call(
      'destination/search/mwl',
      { namespace_id: intake, patient_name: 'LOVELACE' },
      gatekeeper,
    );
    expect(noUuid.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    const noGroup = await server.api.call(
      'destination/search/mwl',
      { uuid: mwl, patient_name: 'X' },
      gatekeeper,
    );
    expect(noGroup.body).toMatchObject({ error_type: 'MISSING_FIELDS', error_subtype: 'study_id' });
    const both = await searchMwl({ study_id: '00000000-0000-4000-8000-000000000000', patient_name: 'X' });
    expect(both.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'namespace_id' });
    expect(await searchCount()).toBe(before);
  });

  it('refuses a destination without can_search_mwl until destination/set turns it on (can_mwl_search, the SDK name)', async () => {
    const before = await searchCount();
    const refused = await server.api.call(
      'destination/search/mwl',
      { uuid: noMwl, namespace_id: intake, patient_name: 'LOVELACE' },
      gatekeeper,
    );
    expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'uuid' });
    expect(await searchCount()).toBe(before);
    // A study search of a worklist-only destination is refused the same way.
    const study = await server.api.call(
      'destination/search',
      { uuid: mwl, copy_to: intake, patient_name: 'LOVELACE' },
      gatekeeper,
    );
    expect(study.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'uuid' });
    const set = await server.api.call('destination/set', { uuid: noMwl, can_mwl_search: '1' }, admin);
    expect(set.body).toMatchObject({ status: 'OK', can_search_mwl: 1 });
    try {
      const body = await found({ uuid: noMwl, patientid: 'MRN-MWL' });
      expect(accessions(body)).toEqual(['MWL-1']);
      const disagree = await server.api.call(
        'destination/set',
        { uuid: noMwl, can_mwl_search: '1', can_search_mwl: '0' },
        admin,
      );
      expect(disagree.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'can_mwl_search' });
    } finally {
      await server.api.call('destination/set', { uuid: noMwl, can_search_mwl: '0' }, admin);
    }
  });

  it("answers NOT_FOUND for another account's destination or group, and to members without destination_search_mwl", async () => {
    const before = await searchCount();
    const outsider = await searchMwl({ uuid: partnerMwl, patient_name: 'LOVELACE' });
    expect(outsider.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'destination' });
    const intoPartner = await searchMwl({ namespace_id: referrals, patient_name: 'LOVELACE' }, admin);
    expect(intoPartner.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'namespace' });
    const partnerOfOurs = await searchMwl({ namespace_id: referrals, patient_name: 'LOVELACE' }, partner);
    expect(partnerOfOurs.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'destination' });
    const clinicianIn = await searchMwl({ namespace_id: emergency, patient_name: 'LOVELACE' }, clinician);
    expect(clinicianIn.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'namespace' });
    const madeUp = await searchMwl({ uuid: '00000000-0000-4000-8000-000000000000', patient_name: 'X' });
    expect(madeUp.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'destination' });
    expect(await searchCount()).toBe(before);
    // A worklist search has no studies to retrieve.
    const body = await found({ accession_number: 'MWL-1' });
    const retrieve = await server.api.call(
      'destination/retrieve',
      { destination_search_id: body.uuid, study_uid: '1.2.826.0.1.3680043.2.1125.77.2' },
      gatekeeper,
    );
    expect(retrieve.body).toMatchObject({ error_type: 'NOT_FOUND' });
  });

  it('fails a search of a worklist that does not answer with the reason, and audits both ends', async () => {
    const body = await found({ uuid: dead, patient_name: 'LOVELACE' });
    expect(body).toMatchObject({ kind: 'mwl', state: 'failed', items: [], truncated: false });
    expect(body.reason).toMatch(/\S/);
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'outcome', 'detail'])
      .where('object_id', '=', dead)
      .where('action', 'in', ['DESTINATION_SEARCH', 'DESTINATION_SEARCH_END'])
      .orderBy('id')
      .execute();
    expect(audited.map((a) => [a.action, a.outcome])).toEqual([
      ['DESTINATION_SEARCH', 'SUCCESS'],
      ['DESTINATION_SEARCH_END', 'FAILURE'],
    ]);
    expect(JSON.parse(audited[0]!.detail!)).toMatchObject({ kind: 'mwl', namespace_id: intake });
  });
});
