import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { largestStudyIn } from '../support/studies.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const ANSWERS = {
  'customfield-priority': 'Priority',
  'customfield-reason_for_visit': 'Chest pain, outside CT',
  'customfield-nominated_by': 'Dr Claire',
  'customfield-mrn': 'MRN-77',
};

describe.each(DIALECTS)('study/nominate and study/nominate/cancel on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let gatekeeper: string;
  let viewer: string;
  let intake: string;
  let intakeNs: string;
  let study: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper', 'viewer']);
    ({ admin, clinician, gatekeeper, viewer } = world.sid);
    ({ uuid: intake, namespace_id: intakeNs } = world.groups['PACS Intake']!);
    study = (await largestStudyIn(server.ctx.db, 'Emergency')).uuid;
  });
  afterAll(async () => {
    await server?.stop();
  });

  const db = () => server.ctx.db.kysely;
  const snapshot = async () => ({
    nominations: await db().selectFrom('nominations').selectAll().orderBy('uuid').execute(),
    shares: await db().selectFrom('study_shares').select(['uuid', 'target_id']).orderBy('uuid').execute(),
    intake: (await db().selectFrom('studies').select('uuid').where('namespace_id', '=', intakeNs).execute())
      .length,
  });
  const nominate = (params: Record<string, string>, sid = clinician) =>
    server.api.call('study/nominate', { uuid: study, gatekeeper_id: intake, ...params }, sid);

  it('refuses a nomination missing required answers, with unknown or bad answers, or to another group, changing nothing', async () => {
    const before = await snapshot();
    const missing = await nominate({ 'customfield-mrn': 'x' });
    expect(missing.status).toBe(412);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    expect(missing.body.error_data).toEqual([
      'customfield-priority',
      'customfield-reason_for_visit',
      'customfield-nominated_by',
    ]);
    expect((await nominate({ ...ANSWERS, 'customfield-colour': 'red' })).body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'customfield-colour',
    });
    expect((await nominate({ ...ANSWERS, 'customfield-priority': 'Urgent' })).body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'customfield-priority',
    });
    expect((await server.api.call('study/nominate', { uuid: study }, clinician)).body).toMatchObject({
      error_type: 'MISSING_FIELDS',
    });
    // A gatekeeper not in Emergency's promote list, another kind of group, a made-up one.
    const cardiology = (await server.api.groups(admin)).find((g) => g.name === 'Cardiology')!.uuid;
    for (const other of [cardiology, '00000000-0000-4000-8000-000000000000']) {
      expect((await nominate({ ...ANSWERS, gatekeeper_id: other })).body).toMatchObject({
        error_type: 'NOT_PERMITTED',
        error_subtype: 'gatekeeper',
      });
    }
    // Without study_share (the viewer), or not seeing the study at all (the gatekeeper).
    expect((await nominate(ANSWERS, viewer)).body).toMatchObject({ error_type: 'NOT_PERMITTED' });
    expect((await nominate(ANSWERS, gatekeeper)).body).toMatchObject({ error_type: 'NOT_FOUND' });
    expect(await snapshot()).toEqual(before);
  });

  it('records the submission and shares the study into PACS Intake as a nomination; a second one is ALREADY_NOMINATED', async () => {
    const answer = await nominate(ANSWERS);
    expect(answer.body).toMatchObject({
      status: 'OK',
      nomination: {
        study_uuid: study,
        gatekeeper_id: intake,
        gatekeeper_name: 'PACS Intake',
        submitted: true,
        source: 'Emergency',
        rejected: false,
        rejection_reason: null,
        push_status: null,
        status: 'IS_NOMINATED',
        answers: {
          priority: 'Priority',
          reason_for_visit: 'Chest pain, outside CT',
          nominated_by: 'Dr Claire',
          mrn: 'MRN-77',
        },
      },
    });
    const copy = answer.body.nomination.copy_uuid as string;
    const row = await db()
      .selectFrom('studies')
      .selectAll()
      .where('uuid', '=', copy)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      namespace_id: intakeNs,
      must_approve: 1,
      push_status: null,
      shared_from: study,
    });

    // The gatekeeper finds it in Nominations, sorted by priority and nomination time.
    const list = await server.api.call(
      'study/list',
      {
        'filter.phi_namespace.equals': intakeNs,
        'filter.must_approve.equals': '1',
        sort_by: 'customfield-nominated_at-desc',
      },
      gatekeeper,
    );
    expect(list.body.studies[0]).toMatchObject({ uuid: copy, must_approve: 1 });
    const fields = list.body.studies[0].customfields as { name: string; value: string }[];
    expect(fields).toContainEqual({ name: 'priority', value: 'Priority' });
    expect(fields.find((f) => f.name === 'nominated_at')?.value).toBe(answer.body.nomination.submitted_at);

    // Both sides read the same nomination; the history tells who nominated.
    const mine = await server.api.call('study/nomination', { uuid: study }, clinician);
    expect(mine.body.nomination).toEqual(answer.body.nomination);
    const theirs = await server.api.call('study/nomination', { uuid: copy }, gatekeeper);
    expect(theirs.body.nomination).toEqual(answer.body.nomination);
    const history = await server.api.call('audit/object', { uuid: study }, clinician);
    expect(history.body.events.map((e: { action: string }) => e.action)).toContain('NOMINATE');

    const before = await snapshot();
    const again = await nominate(ANSWERS);
    expect(again.body).toMatchObject({ error_type: 'ALREADY_NOMINATED' });
    expect(await snapshot()).toEqual(before);
  });

  it('lets the nominator cancel: the share and the copy go, the record stays as NOT_NOMINATED; then nominate again', async () => {
    const before = await snapshot();
    // Only with study_share on the study.
    expect((await server.api.call('study/nominate/cancel', { uuid: study }, viewer)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect(await snapshot()).toEqual(before);

    const cancelled = await server.api.call('study/nominate/cancel', { uuid: study }, clinician);
    expect(cancelled.body).toMatchObject({ status: 'OK' });
    const after = await snapshot();
    expect(after.intake).toBe(before.intake - 1);
    expect(after.shares.some((s) => s.target_id === intake)).toBe(false);
    const status = await server.api.call('study/nomination', { uuid: study }, clinician);
    expect(status.body.nomination).toMatchObject({
      submitted: false,
      copy_uuid: null,
      status: 'NOT_NOMINATED',
    });
    const history = await server.api.call('audit/object', { uuid: study }, clinician);
    expect(history.body.events.map((e: { action: string }) => e.action)).toContain('NOMINATE_CANCEL');

    // Nothing left to cancel.
    const none = await server.api.call('study/nominate/cancel', { uuid: study }, clinician);
    expect(none.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'nomination' });

    const renominated = await nominate(ANSWERS);
    expect(renominated.body.nomination).toMatchObject({ status: 'IS_NOMINATED', submitted: true });
    const both = await server.api.call('study/nomination', { uuid: study }, clinician);
    expect(both.body.history.map((n: { status: string }) => n.status)).toEqual([
      'IS_NOMINATED',
      'NOT_NOMINATED',
    ]);
  });

  it('answers PACS form not configured for a gatekeeper without configuration', async () => {
    await server.ctx.db.kysely.deleteFrom('group_configs').where('group_id', '=', intake).execute();
    await server.api.call('study/nominate/cancel', { uuid: study }, clinician);
    const before = await snapshot();
    const refused = await nominate(ANSWERS);
    expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'gatekeeper_id' });
    expect(await snapshot()).toEqual(before);
  });
});
