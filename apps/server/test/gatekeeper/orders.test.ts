import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('orders (order/add, order/list, order/search) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let gatekeeper: string;
  let partner: string;
  let account: string;
  let intake: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper', 'partner']);
    ({ admin, clinician, gatekeeper, partner } = world.sid);
    account = world.account;
    intake = world.groups['PACS Intake']!.uuid;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const orderCount = async () =>
    Number(
      (await server.ctx.db.kysely
        .selectFrom('orders')
        .select((e) => e.fn.countAll().as('n'))
        .executeTakeFirst())!.n,
    );
  const list = (filter: Record<string, string>, sid = gatekeeper) =>
    server.api.call('order/list', { account_id: account, ...filter }, sid);

  it('seeds orders matching some of PACS Intake nominations', async () => {
    const seeded = await list({ 'filter.accession_number.equals': 'ORD1001' });
    expect(seeded.body).toMatchObject({
      status: 'OK',
      orders: [{ accession_number: 'ORD1001', source: 'HL7' }],
    });
    const order = seeded.body.orders[0];
    const studies = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select(['studies.patientid', 'studies.patient_name', 'studies.must_approve'])
      .where('groups.uuid', '=', intake)
      .where('studies.patientid', '=', order.patientid)
      .execute();
    expect(studies).toContainEqual({
      patientid: order.patientid,
      patient_name: order.patient_name,
      must_approve: 1,
    });
  });

  it('adds an order (order_edit), audited, and finds it by accession number, MRN or a name pattern in any case', async () => {
    const added = await server.api.call(
      'order/add',
      {
        account_id: account,
        accession_number: 'ACC-T1',
        patient_name: 'Lovelace^Ada',
        patientid: 'MRN-T1',
        patient_birth_date: '19801210',
        patient_sex: 'F',
        requested_procedure: 'CT HEAD WITHOUT CONTRAST',
        modality: 'CT',
        scheduled_date: '20261127',
        referring_physician: 'HOUSE^GREGORY',
      },
      gatekeeper,
    );
    expect(added.status).toBe(200);
    expect(added.body.order).toMatchObject({
      accession_number: 'ACC-T1',
      patient_name: 'Lovelace^Ada',
      patient_sex: 'F',
      status: 'SCHEDULED',
      source: 'manual',
    });
    const uuid = added.body.order.uuid as string;
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_type'])
      .where('object_id', '=', uuid)
      .execute();
    expect(audit).toEqual([{ action: 'ORDER_ADD', object_type: 'order' }]);

    const filters: Record<string, string>[] = [
      { 'filter.accession_number.equals': 'ACC-T1' },
      { 'filter.patientid.equals': 'MRN-T1' },
      { 'filter.patient_name.like': '%lovelace%' },
      { 'filter.patient_name.like': 'LOVELACE%ADA' },
    ];
    for (const filter of filters) {
      const found = await list(filter);
      expect(
        found.body.orders.map((o: { uuid: string }) => o.uuid),
        JSON.stringify(filter),
      ).toEqual([uuid]);
    }
    // Accession number and MRN match exactly.
    expect((await list({ 'filter.accession_number.equals': 'ACC-T' })).body.orders).toEqual([]);
    expect((await list({ 'filter.patientid.equals': 'mrn-t1' })).body.orders).toEqual([]);
    // The admin (every permission) reads them too.
    expect((await list({ 'filter.patientid.equals': 'MRN-T1' }, admin)).body.orders).toHaveLength(1);
  });

  it('refuses bad input with a clear error and adds nothing', async () => {
    const before = await orderCount();
    const base = { account_id: account, accession_number: 'ACC-BAD', patient_name: 'DOE^JOHN' };
    const refusals: [Record<string, string>, string, string][] = [
      [{ account_id: account, patient_name: 'DOE^JOHN' }, 'MISSING_FIELDS', 'accession_number'],
      [{ ...base, patient_name: ' ' }, 'MISSING_FIELDS', 'patient_name'],
      [{ ...base, patient_sex: 'X' }, 'INVALID_FIELD', 'patient_sex'],
      [{ ...base, patient_birth_date: '1980-12-10' }, 'INVALID_FIELD', 'patient_birth_date'],
      [{ ...base, scheduled_date: 'tomorrow' }, 'INVALID_FIELD', 'scheduled_date'],
      [{ ...base, modality: 'computed tomography' }, 'INVALID_FIELD', 'modality'],
      [{ ...base, accession_number: 'A'.repeat(17) }, 'INVALID_FIELD', 'accession_number'],
      [{ ...base, accession_number: 'ACC-T1' }, 'INVALID_FIELD', 'accession_number'],
    ];
    for (const [params, type, subtype] of refusals) {
      const refused = await server.api.call('order/add', params, gatekeeper);
      expect(refused.status, JSON.stringify(params)).toBe(412);
      expect(refused.body).toMatchObject({ status: 'ERROR', error_type: type });
      expect(JSON.stringify(refused.body)).toContain(subtype);
    }
    expect(await orderCount()).toBe(before);

    const none = await list({});
    expect(none.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    const two = await list({ 'filter.patientid.equals': 'X', 'filter.patient_name.like': 'Y' });
    expect(two.body).toMatchObject({ error_type: 'INVALID_FIELD' });
  });

  it('answers NOT_PERMITTED without order_view and NOT_FOUND for another account', async () => {
    const refused = await list({ 'filter.patientid.equals': 'MRN-T1' }, clinician);
    expect(refused.body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    const add = await server.api.call(
      'order/add',
      { account_id: account, accession_number: 'ACC-C', patient_name: 'DOE^JOHN' },
      clinician,
    );
    expect(add.body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    const outsider = await list({ 'filter.patientid.equals': 'MRN-T1' }, partner);
    expect(outsider.body).toMatchObject({ error_type: 'NOT_FOUND' });
    const search = await server.api.call(
      'order/search',
      { group_id: intake, 'filter.patientid.equals': 'MRN-T1' },
      clinician,
    );
    expect(search.body).toMatchObject({ error_type: 'NOT_FOUND' });
  });

  it("searches a gatekeeper group's orders: the account's own, no worklist without MWL", async () => {
    const found = await server.api.call(
      'order/search',
      { group_id: intake, 'filter.patient_name.like': '%LOVELACE%' },
      gatekeeper,
    );
    expect(found.body).toMatchObject({
      status: 'OK',
      orders: [{ accession_number: 'ACC-T1', source: 'manual' }],
      worklist: { state: 'none', destination_id: null },
    });
    const nothing = await server.api.call(
      'order/search',
      { group_id: intake, 'filter.accession_number.equals': 'NO-SUCH' },
      gatekeeper,
    );
    expect(nothing.body).toMatchObject({ status: 'OK', orders: [] });
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'ORDER_SEARCH')
      .where('object_id', '=', intake)
      .execute();
    expect(audit.length).toBe(2);

    // A cloud group (the admin holds order_view everywhere) has no worklist: the account's orders only.
    const emergency = (await server.api.groups(admin)).find((g) => g.name === 'Emergency')!.uuid;
    const cloud = await server.api.call(
      'order/search',
      { group_id: emergency, 'filter.accession_number.equals': 'ACC-T1' },
      admin,
    );
    expect(cloud.body).toMatchObject({
      status: 'OK',
      orders: [{ accession_number: 'ACC-T1' }],
      worklist: { state: 'none' },
    });
  });
});
