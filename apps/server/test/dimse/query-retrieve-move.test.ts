import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace } from '../support/netns.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import type { Forward } from '../support/netns-forward.js';
import { forwardIntoNamespace } from '../support/netns-forward.js';
import { dcmtk, keyArgs } from '../support/dcmtk-qr.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

/** Our listener's port inside the namespace, and the demo gateway's storescp (its registered port). */
const INBOX_INSIDE_PORT = 11112;
const GATEWAY_PORT = 11113;

/** The dataset of a Part-10 file: everything after its File Meta Information group. */
function datasetOf(file: Buffer): Buffer {
  const groupLength = file.readUInt32LE(132 + 8);
  return file.subarray(132 + 12 + groupLength);
}
const sha = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

describe.each(DIALECTS)('Query/Retrieve SCP (C-MOVE) with dcmtk on %s', (dialect) => {
  let server: TestServer;
  let ns: NetworkNamespace;
  let toUs: Exposed;
  let toGateway: Forward;
  let received: string;
  let admin: string;
  let gateway: string;
  let emergency: string;
  let cardiology: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    emergency = world.groups['Emergency']!.namespace_id;
    cardiology = world.groups['Cardiology']!.namespace_id;
    ns = await createNetworkNamespace();
    toUs = await exposeToNamespace(ns, server.dicomPort, INBOX_INSIDE_PORT);
    received = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-moved-'));
    ns.start('storescp', ['-aet', 'DEMO_GATEWAY', '-od', received, String(GATEWAY_PORT)], {
      TCP_NODELAY: '1',
    });
    toGateway = await forwardIntoNamespace(ns, GATEWAY_PORT);
    // The server runs outside the namespace: it reaches the gateway's storescp through the forward.
    const nodes = await server.api.call('dicom/node/list', { account_id: world.account }, admin);
    gateway = (nodes.body.nodes as { uuid: string; ae_title: string }[]).find(
      (n) => n.ae_title === 'DEMO_GATEWAY',
    )!.uuid;
    expect(nodes.body.nodes[0]).toMatchObject({ may_retrieve: 1, port: GATEWAY_PORT });
    const set = await server.api.call(
      'dicom/node/set',
      { uuid: gateway, port: String(toGateway.port) },
      admin,
    );
    expect(set.body).toMatchObject({ port: toGateway.port });
  }, 120_000);

  afterAll(async () => {
    await toGateway?.close();
    await toUs?.close();
    await ns?.stop();
    await server?.stop();
    if (received) fs.rmSync(received, { recursive: true, force: true });
  });

  const db = () => server.ctx.db.kysely;
  const movescu = (keys: Record<string, string>, model = '-S') =>
    dcmtk(ns, 'movescu', [
      model,
      '-d',
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '-aem',
      'DEMO_GATEWAY',
      '127.0.0.1',
      String(INBOX_INSIDE_PORT),
      ...keyArgs(keys),
    ]);
  const studyOf = async (namespace: string) =>
    await db()
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', '=', namespace)
      .where('deleted', 'is', null)
      .orderBy('study_uid')
      .executeTakeFirstOrThrow();
  const receivedDatasets = () =>
    fs
      .readdirSync(received)
      .map((f) => sha(datasetOf(fs.readFileSync(path.join(received, f)))))
      .sort();

  it('moves an Emergency study to the registered node, every instance byte-identical, with sub-operation counts', async () => {
    const study = await studyOf(emergency);
    const instances = await db()
      .selectFrom('instances')
      .select(['blob_key', 'sop_instance_uid'])
      .where('study_uuid', '=', study.uuid)
      .execute();
    const run = await movescu({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study.study_uid });
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Completed Suboperations\s*:\s*(\d+)/);
    expect(run.output).toMatch(new RegExp(`Completed Suboperations\\s*:\\s*${instances.length}`));
    if (instances.length > 1) expect(run.output).toMatch(/Remaining Suboperations\s*:\s*\d+/);
    const expected = (
      await Promise.all(
        instances.map(async (i) => sha(datasetOf(await server.ctx.services.blobs.read(i.blob_key)))),
      )
    ).sort();
    const got = await until(
      () => Promise.resolve(receivedDatasets()),
      (files) => files.length >= instances.length,
    );
    expect(got).toEqual(expected);
    const audited = await db()
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'DICOM_MOVE')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(audited).toHaveLength(1);
    expect(JSON.parse(audited[0]!.detail!)).toMatchObject({ calling_ae: 'DEMO_GATEWAY', node: gateway });
  });

  it('never moves a Cardiology study, by study, series or instance', async () => {
    const before = fs.readdirSync(received).length;
    const study = await studyOf(cardiology);
    const series = await db().selectFrom('series').selectAll().where('study_uuid', '=', study.uuid).execute();
    const [instance] = await db()
      .selectFrom('instances')
      .select('sop_instance_uid')
      .where('study_uuid', '=', study.uuid)
      .execute();
    const runs = [
      await movescu({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study.study_uid }),
      await movescu({
        QueryRetrieveLevel: 'SERIES',
        StudyInstanceUID: study.study_uid,
        SeriesInstanceUID: series[0]!.series_uid,
      }),
      await movescu({
        QueryRetrieveLevel: 'IMAGE',
        StudyInstanceUID: study.study_uid,
        SeriesInstanceUID: series[0]!.series_uid,
        SOPInstanceUID: instance!.sop_instance_uid,
      }),
      await movescu({ QueryRetrieveLevel: 'PATIENT', PatientID: study.patientid }, '-P'),
    ];
    for (const run of runs) expect(run.output).toMatch(/Completed Suboperations\s*:\s*0|0x0000/);
    const emergencyPatients = await db()
      .selectFrom('studies')
      .select('patientid')
      .where('namespace_id', '=', emergency)
      .execute();
    await new Promise((r) => setTimeout(r, 500));
    const expectedAfter = emergencyPatients.some((p) => p.patientid === study.patientid) ? undefined : before;
    if (expectedAfter !== undefined) expect(fs.readdirSync(received).length).toBe(expectedAfter);
  });

  it('answers A801 for a move destination that is not a registered node with a port', async () => {
    const study = await studyOf(emergency);
    const run = await dcmtk(ns, 'movescu', [
      '-S',
      '-aet',
      'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '-aem',
      'NOBODY',
      '127.0.0.1',
      String(INBOX_INSIDE_PORT),
      ...keyArgs({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study.study_uid }),
    ]);
    expect(run.output).toMatch(/a801|Move ?Destination ?unknown/i);
  });

  it('refuses the retrieve contexts of a node that may not retrieve', async () => {
    await server.api.call('dicom/node/set', { uuid: gateway, may_retrieve: '0' }, admin);
    try {
      const study = await studyOf(emergency);
      const run = await movescu({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study.study_uid });
      expect(run.output).toMatch(/No valid Presentation Context/i);
      expect(run.output).not.toMatch(/Completed Suboperations/);
    } finally {
      await server.api.call('dicom/node/set', { uuid: gateway, may_retrieve: '1' }, admin);
    }
  });

  it('answers C-GET on the same association with the storage role negotiated, byte-identical, never from Cardiology', async () => {
    const study = await studyOf(emergency);
    const instances = await db()
      .selectFrom('instances')
      .select(['blob_key'])
      .where('study_uuid', '=', study.uuid)
      .execute();
    const got = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-got-'));
    try {
      const getscu = (keys: Record<string, string>) =>
        dcmtk(ns, 'getscu', [
          '-S',
          '-aet',
          'DEMO_GATEWAY',
          '-aec',
          'INBOX',
          '-od',
          got,
          '127.0.0.1',
          String(INBOX_INSIDE_PORT),
          ...keyArgs(keys),
        ]);
      const run = await getscu({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study.study_uid });
      expect(run.code, run.output).toBe(0);
      const expected = (
        await Promise.all(
          instances.map(async (i) => sha(datasetOf(await server.ctx.services.blobs.read(i.blob_key)))),
        )
      ).sort();
      const files = fs.readdirSync(got).map((f) => sha(datasetOf(fs.readFileSync(path.join(got, f)))));
      expect(files.sort()).toEqual(expected);
      const audited = await db()
        .selectFrom('audit_events')
        .select('id')
        .where('action', '=', 'DICOM_GET')
        .where('object_id', '=', study.uuid)
        .execute();
      expect(audited).toHaveLength(1);

      const cardio = await studyOf(cardiology);
      const before = fs.readdirSync(got).length;
      await getscu({ QueryRetrieveLevel: 'STUDY', StudyInstanceUID: cardio.study_uid });
      expect(fs.readdirSync(got).length).toBe(before);
    } finally {
      fs.rmSync(got, { recursive: true, force: true });
    }
  });
});
