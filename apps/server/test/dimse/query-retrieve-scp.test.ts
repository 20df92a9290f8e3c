import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NetworkNamespace } from '../support/netns.js';
import { createNetworkNamespace } from '../support/netns.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import { dcmtk, keyArgs, valuesOf } from '../support/dcmtk-qr.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** Our listener's port as the dcmtk clients inside the namespace reach it. */
const INBOX_INSIDE_PORT = 11112;
const STUDY_UID = '0020,000d';
const SERIES_UID = '0020,000e';
const SOP_UID = '0008,0018';
const PATIENT_ID = '0010,0020';

describe.each(DIALECTS)('Query/Retrieve SCP (C-FIND) with dcmtk on %s', (dialect) => {
  let server: TestServer;
  let ns: NetworkNamespace;
  let toUs: Exposed;
  let emergency: string;
  let cardiology: string;
  let admin: string;
  let account: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    account = world.account;
    groups = world.groups;
    emergency = groups['Emergency']!.namespace_id;
    cardiology = groups['Cardiology']!.namespace_id;
    ns = await createNetworkNamespace();
    toUs = await exposeToNamespace(ns, server.dicomPort, INBOX_INSIDE_PORT);
  }, 120_000);

  afterAll(async () => {
    await toUs?.close();
    await ns?.stop();
    await server?.stop();
  });

  const db = () => server.ctx.db.kysely;
  const findscu = (
    model: '-S' | '-P',
    keys: Record<string, string>,
    options: { callingAe?: string; extra?: string[] } = {},
  ) =>
    dcmtk(ns, 'findscu', [
      model,
      '-d',
      ...(options.extra ?? []),
      '-aet',
      options.callingAe ?? 'DEMO_GATEWAY',
      '-aec',
      'INBOX',
      '127.0.0.1',
      String(INBOX_INSIDE_PORT),
      ...keyArgs(keys),
    ]);
  const studiesOf = (namespace: string) =>
    db()
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', '=', namespace)
      .where('deleted', 'is', null)
      .execute();

  it('answers a Study Root C-FIND at STUDY level from the groups the node may query', async () => {
    const run = await findscu('-S', { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: '', PatientName: '' });
    expect(run.code, run.output).toBe(0);
    const expected = await studiesOf(emergency);
    expect(expected.length).toBeGreaterThan(0);
    expect(valuesOf(run.output, STUDY_UID).sort()).toEqual(expected.map((r) => r.study_uid).sort());
  });

  it('matches wildcards case-blind on names, date ranges and UID lists', async () => {
    const [first, second] = await studiesOf(emergency);
    const prefix = first!.patient_name.slice(0, 3).toLowerCase();
    const byName = await findscu('-S', {
      QueryRetrieveLevel: 'STUDY',
      StudyInstanceUID: '',
      PatientName: `${prefix}*`,
    });
    expect(valuesOf(byName.output, STUDY_UID)).toContain(first!.study_uid);
    const names = valuesOf(byName.output, '0010,0010');
    expect(names.every((n) => n.toLowerCase().startsWith(prefix))).toBe(true);

    const byDate = await findscu('-S', {
      QueryRetrieveLevel: 'STUDY',
      StudyInstanceUID: '',
      StudyDate: `${first!.study_date}-${first!.study_date}`,
    });
    expect(valuesOf(byDate.output, STUDY_UID)).toContain(first!.study_uid);
    expect(valuesOf(byDate.output, '0008,0020').every((d) => d === first!.study_date)).toBe(true);

    const [cardio] = await studiesOf(cardiology);
    const byList = await findscu('-S', {
      QueryRetrieveLevel: 'STUDY',
      StudyInstanceUID: `${first!.study_uid}\\${second!.study_uid}\\${cardio!.study_uid}`,
    });
    expect(valuesOf(byList.output, STUDY_UID).sort()).toEqual([first!.study_uid, second!.study_uid].sort());
  });

  it('answers SERIES and IMAGE levels from the index', async () => {
    const [study] = await studiesOf(emergency);
    const series = await db()
      .selectFrom('series')
      .selectAll()
      .where('study_uuid', '=', study!.uuid)
      .execute();
    const bySeries = await findscu('-S', {
      QueryRetrieveLevel: 'SERIES',
      StudyInstanceUID: study!.study_uid,
      SeriesInstanceUID: '',
      Modality: '',
      NumberOfSeriesRelatedInstances: '',
    });
    expect(bySeries.code, bySeries.output).toBe(0);
    expect(valuesOf(bySeries.output, SERIES_UID).sort()).toEqual(series.map((s) => s.series_uid).sort());

    const instances = await db()
      .selectFrom('instances')
      .select('sop_instance_uid')
      .where('series_uuid', '=', series[0]!.uuid)
      .execute();
    const byImage = await findscu('-S', {
      QueryRetrieveLevel: 'IMAGE',
      StudyInstanceUID: study!.study_uid,
      SeriesInstanceUID: series[0]!.series_uid,
      SOPInstanceUID: '',
      InstanceNumber: '',
    });
    expect(byImage.code, byImage.output).toBe(0);
    expect(valuesOf(byImage.output, SOP_UID).sort()).toEqual(instances.map((i) => i.sop_instance_uid).sort());
  });

  it('answers Patient Root at PATIENT and STUDY levels', async () => {
    const studies = await studiesOf(emergency);
    const patients = await findscu('-P', { QueryRetrieveLevel: 'PATIENT', PatientID: '', PatientName: '' });
    expect(patients.code, patients.output).toBe(0);
    expect(valuesOf(patients.output, PATIENT_ID).sort()).toEqual(
      [...new Set(studies.map((s) => s.patientid).filter(Boolean))].sort(),
    );
    const one = studies[0]!;
    const ofPatient = await findscu('-P', {
      QueryRetrieveLevel: 'STUDY',
      PatientID: one.patientid,
      StudyInstanceUID: '',
    });
    expect(valuesOf(ofPatient.output, STUDY_UID).sort()).toEqual(
      studies
        .filter((s) => s.patientid === one.patientid)
        .map((s) => s.study_uid)
        .sort(),
    );
  });

  it('refuses an unknown calling AE at association time and a level the model lacks', async () => {
    const unknown = await findscu('-S', { QueryRetrieveLevel: 'STUDY' }, { callingAe: 'NOT_REGISTERED' });
    expect(unknown.code).not.toBe(0);
    expect(unknown.output).toMatch(/Association Rejected/i);
    const patientInStudyRoot = await findscu('-S', { QueryRetrieveLevel: 'PATIENT', PatientID: '' });
    expect(patientInStudyRoot.output).toMatch(/0xa900|Identifier does not match|Failed: Identifier/i);
  });

  it('never finds a Cardiology study, at any level, by any key', async () => {
    const [cardio] = await studiesOf(cardiology);
    const series = await db()
      .selectFrom('series')
      .selectAll()
      .where('study_uuid', '=', cardio!.uuid)
      .execute();
    const runs = await Promise.all([
      findscu('-S', { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: cardio!.study_uid }),
      findscu('-S', { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: '', PatientID: cardio!.patientid }),
      findscu('-S', {
        QueryRetrieveLevel: 'SERIES',
        StudyInstanceUID: cardio!.study_uid,
        SeriesInstanceUID: '',
      }),
      findscu('-S', {
        QueryRetrieveLevel: 'IMAGE',
        StudyInstanceUID: cardio!.study_uid,
        SeriesInstanceUID: series[0]!.series_uid,
        SOPInstanceUID: '',
      }),
      findscu('-P', { QueryRetrieveLevel: 'PATIENT', PatientID: cardio!.patientid }),
    ]);
    const emergencyPatients = new Set((await studiesOf(emergency)).map((s) => s.patientid));
    for (const run of runs) {
      expect(run.code, run.output).toBe(0);
      expect(valuesOf(run.output, STUDY_UID)).not.toContain(cardio!.study_uid);
      expect(valuesOf(run.output, SERIES_UID)).toEqual([]);
      expect(valuesOf(run.output, SOP_UID)).toEqual([]);
      if (!emergencyPatients.has(cardio!.patientid)) {
        expect(valuesOf(run.output, PATIENT_ID).filter((p) => p === cardio!.patientid)).toEqual([]);
      }
    }
  });

  it('audits each C-FIND as the node', async () => {
    const before = await db()
      .selectFrom('audit_events')
      .select('id')
      .where('action', '=', 'DICOM_FIND')
      .execute();
    await findscu('-S', { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: '' });
    const events = await db()
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'DICOM_FIND')
      .orderBy('id')
      .execute();
    expect(events.length).toBe(before.length + 1);
    const event = events.at(-1)!;
    expect(event).toMatchObject({ object_type: 'dicom_node', user_id: null, account_id: account });
    const detail = JSON.parse(event.detail ?? '{}') as { studies: string[] };
    expect(detail).toMatchObject({ calling_ae: 'DEMO_GATEWAY', level: 'STUDY', model: 'study-root' });
    expect(detail.studies.length).toBe((await studiesOf(emergency)).length);
  });

  it('finds a study held in two of the groups it may query once', async () => {
    const added = await server.api.call(
      'dicom/node/add',
      {
        account_id: account,
        ae_title: 'WORKSTATION',
        host: '127.0.0.1',
        group_id: groups['Emergency']!.uuid,
        query_group_ids: `${groups['Emergency']!.uuid},${groups['Cardiology']!.uuid}`,
      },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ may_retrieve: 0, port: null });
    expect(added.body.query_group_ids).toHaveLength(2);
    const [study] = await studiesOf(emergency);
    const { uuid: _uuid, ...row } = study!;
    await db()
      .insertInto('studies')
      .values({ ...row, uuid: `${study!.uuid.slice(0, -4)}c0de`, namespace_id: cardiology })
      .execute();
    const run = await findscu(
      '-S',
      { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: study!.study_uid },
      { callingAe: 'WORKSTATION' },
    );
    expect(valuesOf(run.output, STUDY_UID)).toEqual([study!.study_uid]);
  });

  it('stops a C-FIND of 10,000 studies at a C-CANCEL, read from the index alone', async () => {
    const [model] = await studiesOf(emergency);
    const { uuid: _uuid, ...row } = model!;
    for (let start = 0; start < 10_000; start += 500) {
      await db()
        .insertInto('studies')
        .values(
          Array.from({ length: 500 }, (_, i) => ({
            ...row,
            uuid: `bulk-${dialect}-${start + i}`,
            study_uid: `1.2.826.0.1.3680043.10.54321.${start + i}`,
          })),
        )
        .execute();
    }
    const started = Date.now();
    const run = await findscu(
      '-S',
      { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: '' },
      { extra: ['--cancel', '5'] },
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/Final Find Response[\s\S]*0xfe00/i);
    // Responses already on their way when the cancel arrived still come, the rest never does.
    expect(valuesOf(run.output, STUDY_UID).length).toBeLessThan(5_000);
    expect(Date.now() - started).toBeLessThan(20_000);
    // The association is still served afterwards.
    const after = await findscu('-S', { QueryRetrieveLevel: 'STUDY', StudyInstanceUID: model!.study_uid });
    expect(valuesOf(after.output, STUDY_UID)).toEqual([model!.study_uid]);
  }, 120_000);
});
