import dcmjs from 'dcmjs';
import { orderWrittenValues } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Orthanc } from '../support/orthanc.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  addDestination,
  demoWorld,
  firstAccountOf,
  gatekeeperConfig,
  nominate as nominateTo,
  setGatekeeperConfig,
} from '../support/demo-world.js';
import { smallestStudiesIn } from '../support/studies.js';

/** An order as HL7 or order/add would file it: every attribute Order Comparison writes. */
const ORDER = {
  accession_number: 'ACC-ORD-9',
  patient_name: 'ORDERED^OLIVIA',
  patientid: 'MRN-ORD-9',
  patient_birth_date: '19571109',
  patient_sex: 'F',
  requested_procedure: 'MR KNEE LEFT',
  modality: 'MR',
  scheduled_date: '20261120',
  referring_physician: 'WILSON^JAMES',
};

/**
 * study/process naming an order (issue 28): the order's patient name, MRN, birth date, sex,
 * accession number and procedure are written as the Order Comparison screen writes them, what the
 * call types in wins, and the PACS receives the exam so. An order that is not the account's is
 * NOT_FOUND order, and nothing changes.
 */
describe.each(DIALECTS)('study/process with an order_id (Orthanc as the PACS) on %s', (dialect) => {
  let server: TestServer;
  let peer: OrthancPacs;
  let orthanc: Orthanc;
  let gatekeeper: string;
  let clinician: string;
  let intake: string;
  let pacs: string;
  let order: Record<string, string>;
  let partnerOrder: string;
  const nominees: { uuid: string; study_uid: string }[] = [];

  const db = () => server.ctx.db.kysely;
  const copyOf = (study: string) => nominateTo(server.api, clinician, study, intake);
  const snapshot = async (copy: string) => ({
    study: await db()
      .selectFrom('studies')
      .select([
        'patient_name',
        'patientid',
        'accession_number',
        'study_description',
        'must_approve',
        'is_locked',
      ])
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    nomination: await db()
      .selectFrom('nominations')
      .select(['process', 'processed_at'])
      .where('copy_uuid', '=', copy)
      .executeTakeFirstOrThrow(),
    pushes: await db().selectFrom('study_pushes').select('uuid').where('study_uuid', '=', copy).execute(),
    events: await db().selectFrom('audit_events').select('action').where('object_id', '=', copy).execute(),
  });

  beforeAll(async () => {
    server = await startTestServer(dialect, { PUSH_RETRY_MS: '200' });
    peer = await startOrthancPacs('inbox-process-order-');
    orthanc = peer.orthanc;
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper', 'partner']);
    ({ gatekeeper, clinician } = world.sid);
    intake = world.groups['PACS Intake']!.uuid;
    pacs = await addDestination(server.api, world.sid.admin, world.account, {
      name: 'Order PACS',
      aetitle: 'ORTHANC',
      port: peer.toOrthanc.port,
      can_search: 1,
      can_push: 1,
    });
    const config = await gatekeeperConfig(server.api, world.sid.admin, intake);
    await setGatekeeperConfig(server.api, world.sid.admin, intake, { ...config, destinations: [pacs] });

    const added = await server.api.call('order/add', { account_id: world.account, ...ORDER }, gatekeeper);
    order = added.body.order as Record<string, string>;
    expect(order).toMatchObject({ accession_number: ORDER.accession_number });
    // The same accession number in another account: its order is not this account's.
    const partnerAccount = await firstAccountOf(server.api, world.sid.partner);
    expect(partnerAccount).not.toBe(world.account);
    const theirs = await server.api.call(
      'order/add',
      { account_id: partnerAccount, ...ORDER, patientid: 'MRN-PARTNER' },
      world.sid.partner,
    );
    partnerOrder = theirs.body.order.uuid as string;
    nominees.push(...(await smallestStudiesIn(server.ctx.db, 'Cardiology', 2)));
  }, 120_000);

  afterAll(async () => {
    await peer?.stop();
    await server?.stop();
  });

  it("answers NOT_FOUND order for another account's order or a made-up one; nothing changes", async () => {
    const copy = await copyOf(nominees[0]!.uuid);
    const before = await snapshot(copy);
    for (const orderId of [partnerOrder, 'no-such-order']) {
      const refused = await server.api.call(
        'study/process',
        { uuid: copy, destination_id: pacs, order_id: orderId },
        gatekeeper,
      );
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({
        status: 'ERROR',
        error_type: 'NOT_FOUND',
        error_subtype: 'order',
      });
    }
    expect(await snapshot(copy)).toEqual(before);
  });

  it("writes the order's values as Order Comparison would, typed ones win, and the PACS gets them", async () => {
    const copy = (
      await db()
        .selectFrom('nominations')
        .select('copy_uuid')
        .where('study_uuid', '=', nominees[0]!.uuid)
        .executeTakeFirstOrThrow()
    ).copy_uuid!;
    // The screen's Send to PACS sends these for this order; the API caller sends only its id and
    // one typed value, which overrides the order's.
    const typed = { patient_name: 'TYPED^TERESA' };
    const expected = { ...orderWrittenValues(order), ...typed };
    expect(Object.keys(expected).sort()).toEqual(
      [
        'accession_number',
        'patient_birth_date',
        'patient_name',
        'patient_sex',
        'patientid',
        'referring_physician',
        'requested_procedure',
      ].sort(),
    );
    const answer = await server.api.call(
      'study/process',
      { uuid: copy, destination_id: pacs, order_id: order['uuid']!, ...typed },
      gatekeeper,
    );
    expect(answer.body).toMatchObject({ status: 'OK', nomination: { push_status: 'I' } });

    const row = await db()
      .selectFrom('studies')
      .selectAll()
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      patient_name: expected.patient_name,
      patientid: expected.patientid,
      patient_birth_date: expected.patient_birth_date,
      patient_sex: expected.patient_sex,
      accession_number: expected.accession_number,
      study_description: expected.requested_procedure,
      referring_physician: expected.referring_physician,
    });

    const done = await until(
      () => server.api.call('study/nomination', { uuid: nominees[0]!.uuid }, clinician),
      (r) => r.body.nomination.push_status === 'S' || r.body.nomination.push_status === 'F',
    );
    expect(done.body.nomination).toMatchObject({ status: 'NOMINATION_SUCCESS', push_status: 'S' });

    const found = await orthanc.rest<{ ID: string }[]>('POST', '/tools/lookup', row.study_uid);
    const instances = await orthanc.rest<{ ID: string }[]>('GET', `/studies/${found[0]!.ID}/instances`);
    expect(instances.length).toBe(Number(row.image_count));
    const bytes = await orthanc.restBytes(`/instances/${instances[0]!.ID}/file`);
    const ds = dcmjs.data.DicomMessage.readFile(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    ).dict;
    const value = (tag: string) => {
      const v = ds[tag]?.Value?.[0];
      return typeof v === 'object' && v ? (v as { Alphabetic: string }).Alphabetic : v;
    };
    expect({
      name: value('00100010'),
      mrn: value('00100020'),
      birth: value('00100030'),
      sex: value('00100040'),
      accession: value('00080050'),
      description: value('00081030'),
      referring: value('00080090'),
    }).toEqual({
      name: 'TYPED^TERESA',
      mrn: ORDER.patientid,
      birth: ORDER.patient_birth_date,
      sex: ORDER.patient_sex,
      accession: ORDER.accession_number,
      description: ORDER.requested_procedure,
      referring: ORDER.referring_physician,
    });

    // The history says which order it was compared with.
    const compared = await db()
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', copy)
      .where('action', '=', 'ORDER_COMPARE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(compared.detail!)).toMatchObject({ order_id: order['uuid'] });
  });
});
