import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import {
  arrivedIn,
  demoWorld,
  listenAsDemoArchive,
  nominate,
  NOMINATION_ANSWERS,
} from '../support/demo-world.js';
import { smallestStudyIn } from '../support/studies.js';

/**
 * study/approve (SPEC.md section 7): the gatekeeper approves a nomination as it was nominated; it
 * goes unchanged to the group's one destination, here the demo PACS Archive (our own listener).
 */
describe.each(DIALECTS)('study/approve on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let gatekeeper: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let study: Awaited<ReturnType<typeof smallestStudyIn>>;
  let copy: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ clinician, gatekeeper } = world.sid);
    groups = world.groups;
    await listenAsDemoArchive(server, world);
    study = await smallestStudyIn(server.ctx.db, 'Emergency');
    copy = await nominate(server.api, clinician, study.uuid, groups['PACS Intake']!.uuid, {
      ...NOMINATION_ANSWERS,
      'customfield-priority': 'Priority',
      'customfield-reason_for_visit': 'Transfer',
    });
  });
  afterAll(() => server?.stop());

  it('refuses the nominating clinician, a made-up study and a study that is no nomination', async () => {
    const byClinician = await server.api.get('study/approve', { sid: clinician, uuid: copy });
    expect(byClinician.body.error_type).toBe('NOT_FOUND');
    const madeUp = await server.api.get('study/approve', { sid: gatekeeper, uuid: 'no-such-study' });
    expect(madeUp.body.error_type).toBe('NOT_FOUND');
    const missing = await server.api.get('study/approve', { sid: gatekeeper });
    expect(missing.body.error_type).toBe('MISSING_FIELDS');
    const unknownDestination = await server.api.get('study/approve', {
      sid: gatekeeper,
      uuid: copy,
      destination_id: '00000000-0000-4000-8000-000000000000',
    });
    expect(unknownDestination.body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'destination_id',
    });
    const still = await server.api.call('study/nomination', { uuid: study.uuid }, clinician);
    expect(still.body.nomination.push_status).toBeNull();
  });

  it('sends the nomination unchanged, with its priority, to the group’s destination; a second approve is refused', async () => {
    const approved = await server.api.get('study/approve', { sid: gatekeeper, uuid: copy });
    expect(approved.body.status, JSON.stringify(approved.body)).toBe('OK');
    expect(approved.body.changed).toEqual([]);
    const processed = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('detail')
      .where('object_id', '=', copy)
      .where('action', '=', 'PROCESS')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(String(processed.detail))).toMatchObject({
      priority: 'Priority',
      images: study.image_count,
    });
    const again = await server.api.get('study/approve', { sid: gatekeeper, uuid: copy });
    expect(again.body.error_type).toBe('ALREADY_PROCESSED');
    const status = await until(
      () => server.api.call('study/nomination', { uuid: study.uuid }, clinician),
      (r) => ['S', 'F'].includes(r.body.nomination.push_status as string),
    );
    expect(status.body.nomination).toMatchObject({ status: 'NOMINATION_SUCCESS', push_status: 'S' });
    const arrived = await arrivedIn(server.api, gatekeeper, groups['PACS Archive']!.namespace_id, study);
    expect(arrived).toMatchObject({
      patient_name: study.patient_name,
      patientid: study.patientid,
    });
  }, 120_000);
});
