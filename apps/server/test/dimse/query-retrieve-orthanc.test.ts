import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../support/demo-world.js';
import type { Exposed } from '../support/netns-expose.js';
import { exposeToNamespace } from '../support/netns-expose.js';
import type { OrthancPacs } from '../support/orthanc-pacs.js';
import { startOrthancPacs } from '../support/orthanc-pacs.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/** Our listener's port inside Orthanc's namespace (Orthanc's `DicomModalities` entry for us). */
const INBOX_INSIDE_PORT = 11112;
/** Orthanc's own AE title as a workstation, registered with us as a DICOM node. */
const WORKSTATION_AE = 'WORKSTATION';

interface OrthancQuery {
  ID: string;
}
/** One answer of Orthanc's query, as `?simplify` names its tags. */
interface OrthancAnswer {
  StudyInstanceUID?: string;
  PatientID?: string;
}

/**
 * Orthanc as a radiologist's workstation: the inbox is one of its modalities, and its own REST API
 * queries the inbox (C-FIND) and retrieves what it found (C-MOVE to itself), as a workstation user
 * would from its query/retrieve window. The inbox answers within the groups the node's registration
 * names, and the study lands in Orthanc.
 */
describe.each(DIALECTS)('Orthanc queries and retrieves from the inbox on %s', (dialect) => {
  let server: TestServer;
  let pacs: OrthancPacs;
  let toUs: Exposed;
  let admin: string;
  let emergency: string;
  let cardiology: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin']);
    admin = world.sid.admin;
    emergency = world.groups['Emergency']!.namespace_id;
    cardiology = world.groups['Cardiology']!.namespace_id;
    pacs = await startOrthancPacs('inbox-workstation-', {
      config: { DicomAet: WORKSTATION_AE },
    });
    toUs = await exposeToNamespace(pacs.ns, server.dicomPort, INBOX_INSIDE_PORT);
    // The node: Orthanc's AE, from the address its associations arrive from, with the port this
    // process reaches its DICOM listener on, for Emergency only.
    const added = await server.api.call(
      'dicom/node/add',
      {
        account_id: world.account,
        name: 'Reading room workstation',
        ae_title: WORKSTATION_AE,
        host: '127.0.0.1',
        group_id: world.groups['Emergency']!.uuid,
        query_group_ids: world.groups['Emergency']!.uuid,
        may_retrieve: '1',
        port: String(pacs.toOrthanc.port),
      },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await toUs?.close();
    await pacs?.stop();
    await server?.stop();
  });

  const studyOf = async (namespace: string) =>
    await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'study_uid', 'patientid'])
      .where('namespace_id', '=', namespace)
      .where('deleted', 'is', null)
      .orderBy('study_uid')
      .executeTakeFirstOrThrow();

  /** Orthanc's C-FIND to the inbox at STUDY level; answers its query id and the answers' contents. */
  const query = async (keys: Record<string, string>) => {
    const started = await pacs.orthanc.rest<OrthancQuery>(
      'POST',
      '/modalities/INBOX/query',
      JSON.stringify({ Level: 'Study', Query: { PatientID: '', StudyInstanceUID: '', ...keys } }),
    );
    const indexes = await pacs.orthanc.rest<string[]>('GET', `/queries/${started.ID}/answers`);
    const answers = await Promise.all(
      indexes.map((i) =>
        pacs.orthanc.rest<OrthancAnswer>('GET', `/queries/${started.ID}/answers/${i}/content?simplify`),
      ),
    );
    return { id: started.ID, answers };
  };

  it('finds an Emergency study by patient and retrieves it into Orthanc, every instance', async () => {
    const study = await studyOf(emergency);
    const found = await query({ PatientID: study.patientid ?? '' });
    expect(found.answers.map((a) => a.StudyInstanceUID)).toContain(study.study_uid);

    const one = await query({ StudyInstanceUID: study.study_uid });
    expect(one.answers).toHaveLength(1);
    await pacs.orthanc.rest(
      'POST',
      `/queries/${one.id}/retrieve`,
      JSON.stringify({ TargetAet: WORKSTATION_AE, Synchronous: true }),
    );

    const landed = await pacs.orthanc.rest<{ ID: string; Type: string }[]>(
      'POST',
      '/tools/lookup',
      study.study_uid,
    );
    expect(landed).toHaveLength(1);
    const instances = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('sop_instance_uid')
      .where('study_uuid', '=', study.uuid)
      .execute();
    const stats = await pacs.orthanc.rest<{ CountInstances: number }>(
      'GET',
      `/studies/${landed[0]!.ID}/statistics`,
    );
    expect(stats.CountInstances).toBe(instances.length);
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('action', '=', 'DICOM_MOVE')
      .where('object_id', '=', study.uuid)
      .execute();
    expect(audited.map((a) => JSON.parse(a.detail!) as { calling_ae: string })).toContainEqual(
      expect.objectContaining({ calling_ae: WORKSTATION_AE }),
    );
  });

  it('never finds a Cardiology study, by its UID or by its patient', async () => {
    const study = await studyOf(cardiology);
    const byUid = await query({ StudyInstanceUID: study.study_uid });
    expect(byUid.answers).toEqual([]);
    const byPatient = await query({ PatientID: study.patientid ?? '' });
    expect(byPatient.answers.map((a) => a.StudyInstanceUID)).not.toContain(study.study_uid);
  });
});
