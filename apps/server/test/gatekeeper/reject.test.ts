import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld, nominate } from '../support/demo-world.js';
import { largestStudyIn } from '../support/studies.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const ANSWERS = {
  'customfield-priority': 'Routine',
  'customfield-reason_for_visit': 'Outside MRI',
  'customfield-nominated_by': 'Dr Claire',
};

describe.each(DIALECTS)('study/reject on %s', (dialect) => {
  let server: TestServer;
  let clinician: string;
  let gatekeeper: string;
  let study: string;
  let copy: string;
  let intakeNs: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ clinician, gatekeeper } = world.sid);
    const intake = world.groups['PACS Intake']!;
    intakeNs = intake.namespace_id;
    study = (await largestStudyIn(server.ctx.db, 'Cardiology')).uuid;
    copy = await nominate(server.api, clinician, study, intake.uuid, ANSWERS);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const db = () => server.ctx.db.kysely;
  const snapshot = async () => ({
    nominations: await db().selectFrom('nominations').selectAll().execute(),
    studies: await db()
      .selectFrom('studies')
      .select(['uuid', 'must_approve', 'push_status'])
      .where('uuid', 'in', [study, copy])
      .orderBy('uuid')
      .execute(),
    fields: await db()
      .selectFrom('study_customfields')
      .selectAll()
      .where('study_uuid', 'in', [study, copy])
      .orderBy('study_uuid')
      .orderBy('name')
      .execute(),
  });
  const fieldsOf = async (uuid: string) =>
    Object.fromEntries(
      (await db().selectFrom('study_customfields').selectAll().where('study_uuid', '=', uuid).execute()).map(
        (f) => [f.name, f.value],
      ),
    );

  it('needs a reason and a message, study_approve, and a nomination; refusals change nothing', async () => {
    const before = await snapshot();
    const missing = await server.api.call('study/reject', { uuid: copy, reason: ' ' }, gatekeeper);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    expect(String(missing.body.error_subtype)).toContain('message');
    expect(String(missing.body.error_subtype)).toContain('reason');
    // The nominator sees their own study but holds no study_approve; the copy is not theirs to see.
    expect(
      (await server.api.call('study/reject', { uuid: study, reason: 'r', message: 'm' }, clinician)).body,
    ).toMatchObject({ error_type: 'NOT_PERMITTED', error_subtype: 'study_approve' });
    expect(
      (await server.api.call('study/reject', { uuid: copy, reason: 'r', message: 'm' }, clinician)).body,
    ).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'study' });
    // A seeded PACS Intake study that came from no nomination.
    const seeded = await db()
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '=', intakeNs)
      .where('uuid', '!=', copy)
      .executeTakeFirstOrThrow();
    expect(
      (await server.api.call('study/reject', { uuid: seeded.uuid, reason: 'r', message: 'm' }, gatekeeper))
        .body,
    ).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'nomination' });
    expect(await snapshot()).toEqual(before);
  });

  it('writes the rejection on the copy and the nominator study, moves it to Rejected; a second answers ALREADY_PROCESSED', async () => {
    const answer = await server.api.call(
      'study/reject',
      { uuid: copy, reason: 'Wrong patient', message: 'MRN does not match the order' },
      gatekeeper,
    );
    expect(answer.body).toMatchObject({
      status: 'OK',
      nomination: {
        rejected: true,
        rejection_reason: 'Wrong patient',
        rejection_message: 'MRN does not match the order',
        status: 'REJECTED',
      },
    });
    const rejection = {
      is_process_form_rejected: '1',
      rejection_reason: 'Wrong patient',
      rejection_message: 'MRN does not match the order',
    };
    expect(await fieldsOf(copy)).toMatchObject(rejection);
    expect(await fieldsOf(study)).toMatchObject(rejection);

    // Out of Nominations, into Rejected.
    const list = async (filters: Record<string, string>) =>
      (
        await server.api.call(
          'study/list',
          { 'filter.phi_namespace.equals': intakeNs, ...filters },
          gatekeeper,
        )
      ).body.studies.map((s: { uuid: string }) => s.uuid);
    expect(await list({ 'filter.must_approve.equals': '1' })).not.toContain(copy);
    expect(await list({ 'filter.study_push_status.in': '["R"]' })).toContain(copy);

    // The nominator reads why; both histories tell it.
    const status = await server.api.call('study/nomination', { uuid: study }, clinician);
    expect(status.body.nomination).toMatchObject({ status: 'REJECTED', rejection_reason: 'Wrong patient' });
    for (const [uuid, sid] of [
      [study, clinician],
      [copy, gatekeeper],
    ] as const) {
      const events = (await server.api.call('audit/object', { uuid }, sid)).body.events;
      expect(events.find((e: { action: string }) => e.action === 'REJECT')?.detail).toMatchObject({
        reason: 'Wrong patient',
      });
    }

    const before = await snapshot();
    const again = await server.api.call(
      'study/reject',
      { uuid: copy, reason: 'x', message: 'y' },
      gatekeeper,
    );
    expect(again.body).toMatchObject({ error_type: 'ALREADY_PROCESSED' });
    // A rejected nomination is no longer the nominator's to cancel.
    const cancel = await server.api.call('study/nominate/cancel', { uuid: study }, clinician);
    expect(cancel.body).toMatchObject({ error_type: 'ALREADY_PROCESSED' });
    expect(await snapshot()).toEqual(before);
  });
});
