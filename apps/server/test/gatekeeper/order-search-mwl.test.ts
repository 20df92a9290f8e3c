import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addDestination,
  firstAccountOf,
  gatekeeperConfig,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import type { WorklistServer } from '../support/wlmscpfs.js';
import { ADA_MR_BRAIN, startWorklistServer, UTF8_HEAD_CT } from '../support/wlmscpfs.js';

/**
 * Search Order of a gatekeeper group whose promote preference is MWL: the account's own orders and
 * the worklist's (dcmtk's wlmscpfs in a private network namespace), merged by accession number.
 */
describe.each(DIALECTS)('Search Order with a Modality Worklist on %s', (dialect) => {
  let server: TestServer;
  let worklist: WorklistServer;
  let admin: string;
  let gatekeeper: string;
  let account: string;
  let intake: string;
  let mwl: string;

  beforeAll(async () => {
    worklist = await startWorklistServer([
      ADA_MR_BRAIN,
      {
        accession: 'ACC-BOTH',
        name: 'LOVELACE^BYRON',
        id: 'MRN-BOTH',
        birthDate: '19700101',
        sex: 'M',
        modality: 'CT',
        date: '20261127',
        description: 'CT CHEST',
      },
      UTF8_HEAD_CT,
    ]);
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    gatekeeper = await server.api.login('gatekeeper@demo.local');
    account = await firstAccountOf(server.api, admin);
    intake = (await server.api.groups(gatekeeper)).find((g) => g.name === 'PACS Intake')!.uuid;
    mwl = await addDestination(server.api, admin, account, {
      name: 'Hospital worklist',
      aetitle: worklist.aeTitle,
      port: worklist.port,
      can_search: 0,
      can_search_mwl: 1,
      can_push: 0,
    });
    const config = await gatekeeperConfig(server.api, admin, intake);
    await setGatekeeperConfig(server.api, admin, intake, {
      ...config,
      pacsPromotePreference: 'MWL',
      queryDestination: mwl,
    });
    const added = await server.api.call(
      'order/add',
      {
        account_id: account,
        accession_number: 'ACC-BOTH',
        patient_name: 'LOVELACE^BYRON',
        patientid: 'MRN-BOTH',
      },
      gatekeeper,
    );
    expect(added.status).toBe(200);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await worklist?.stop();
  });

  const search = (filter: Record<string, string>) =>
    server.api.call('order/search', { group_id: intake, ...filter }, gatekeeper);

  it("merges the account's orders and the worklist's, one per accession number, the account's first", async () => {
    const found = await search({ 'filter.patient_name.like': 'LOVELACE%' });
    expect(found.body.worklist).toEqual({
      state: 'ok',
      destination_id: mwl,
      destination_name: 'Hospital worklist',
      reason: null,
    });
    const orders = found.body.orders as { accession_number: string; source: string }[];
    expect(orders.map((o) => [o.accession_number, o.source])).toEqual([
      ['ACC-BOTH', 'manual'],
      ['MWL-1', 'MWL'],
    ]);
    expect(found.body.orders[1]).toMatchObject({
      uuid: 'mwl:MWL-1',
      patient_name: 'LOVELACE^ADA',
      patientid: 'MRN-MWL',
      patient_birth_date: '19801210',
      patient_sex: 'F',
      modality: 'MR',
      scheduled_date: '20261127',
      requested_procedure: 'MR BRAIN',
      referring_physician: 'HOUSE^GREGORY',
      status: 'SCHEDULED',
    });
  });

  it('finds worklist orders by accession number and by MRN, non-ASCII names decoded', async () => {
    const byAccession = await search({ 'filter.accession_number.equals': 'MWL-3' });
    expect(byAccession.body.orders).toMatchObject([
      { patient_name: 'MÜLLER^JÖRG', requested_procedure: 'Schädel CT' },
    ]);
    const byMrn = await search({ 'filter.patientid.equals': 'MRN-MWL' });
    expect(byMrn.body.orders.map((o: { accession_number: string }) => o.accession_number)).toEqual(['MWL-1']);
    const none = await search({ 'filter.patientid.equals': 'NOBODY' });
    expect(none.body).toMatchObject({ status: 'OK', orders: [], worklist: { state: 'ok' } });
  });

  it("still answers the account's orders when the worklist cannot be reached, with the reason", async () => {
    await server.api.call('destination/set', { uuid: mwl, port: '9' }, admin);
    try {
      const found = await search({ 'filter.accession_number.equals': 'ACC-BOTH' });
      expect(found.status).toBe(200);
      expect(found.body.orders).toMatchObject([{ accession_number: 'ACC-BOTH', source: 'manual' }]);
      expect(found.body.worklist).toMatchObject({ state: 'failed', destination_id: mwl });
      expect(found.body.worklist.reason).toMatch(/\S/);
    } finally {
      await server.api.call('destination/set', { uuid: mwl, port: String(worklist.port) }, admin);
    }
  });
});
