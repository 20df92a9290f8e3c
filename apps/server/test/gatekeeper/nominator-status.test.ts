import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';
import { demoWorld, listenAsDemoArchive, nominate } from '../support/demo-world.js';
import { smallestStudiesIn } from '../support/studies.js';

/** The `count` smallest studies of a demo group that the demo has not nominated already. */
async function notNominated(server: TestServer, group: string, count: number) {
  const nominated = new Set(
    (await server.ctx.db.kysely.selectFrom('nominations').select('study_uuid').execute()).map(
      (n) => n.study_uuid,
    ),
  );
  const studies = await smallestStudiesIn(server.ctx.db, group, count + nominated.size);
  return studies.filter((s) => !nominated.has(s.uuid)).slice(0, count);
}

type Field = { uuid?: string; name: string; value: string | null };

/**
 * The nominator's own study carries its nomination's PACS status (SPEC.md section 2, card icons):
 * while a nomination is live, study/get and study/list answer its `nominated_at` and the push status
 * of its copy in the gatekeeper group (`nomination_push_status`: empty while it waits, then I/N/P,
 * S or F), so the card in the nominator's group shows nominated, queued, sent or failed.
 */
describe.each(DIALECTS)("the nominator's study's PACS status on %s", (dialect) => {
  let server: TestServer;
  let clinician: string;
  let gatekeeper: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let studies: { uuid: string; study_uid: string }[];

  const workflowFields = async (uuid: string, sid = clinician) => {
    const got = await server.api.call('study/get', { uuid }, sid);
    expect(got.body.status).toBe('OK');
    return Object.fromEntries(
      (got.body.customfields as Field[])
        .filter((f) => !f.uuid && ['nominated_at', 'nomination_push_status'].includes(f.name))
        .map((f) => [f.name, f.value]),
    );
  };
  const listed = async (uuid: string) => {
    const list = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': groups['Emergency']!.namespace_id, 'page.rows': 100 },
      clinician,
    );
    const row = (list.body.studies as { uuid: string; customfields: Field[] }[]).find((s) => s.uuid === uuid);
    return row?.customfields.find((f) => f.name === 'nomination_push_status')?.value;
  };

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ clinician, gatekeeper } = world.sid);
    groups = world.groups;
    await listenAsDemoArchive(server, world);
    studies = await notNominated(server, 'Emergency', 2);
  }, 120_000);
  afterAll(() => server?.stop());

  it('answers nominated, then queued or sent as its copy is, on study/get and study/list', async () => {
    const study = studies[0]!;
    expect(await workflowFields(study.uuid)).toEqual({});
    const copy = await nominate(server.api, clinician, study.uuid, groups['PACS Intake']!.uuid);
    const nominated = await workflowFields(study.uuid);
    expect(nominated).toEqual({ nominated_at: expect.any(String), nomination_push_status: '' });
    expect(Math.abs(Date.parse(nominated['nominated_at']!) - Date.now())).toBeLessThan(60_000);
    expect(await listed(study.uuid)).toBe('');

    const approved = await server.api.call('study/approve', { uuid: copy }, gatekeeper);
    expect(approved.body.status).toBe('OK');
    expect(['I', 'N', 'P', 'S']).toContain((await workflowFields(study.uuid))['nomination_push_status']);
    await until(
      () => listed(study.uuid),
      (status) => status === 'S',
    );
    // The copy answers its own push status as before, without the nominator's field.
    expect(await workflowFields(copy, gatekeeper)).not.toHaveProperty('nomination_push_status');
  }, 90_000);

  it('answers no nomination status once the nomination is cancelled or rejected', async () => {
    const study = studies[1]!;
    await nominate(server.api, clinician, study.uuid, groups['PACS Intake']!.uuid);
    expect(await workflowFields(study.uuid)).toMatchObject({ nomination_push_status: '' });
    const cancelled = await server.api.call('study/nominate/cancel', { uuid: study.uuid }, clinician);
    expect(cancelled.body.status).toBe('OK');
    expect(await workflowFields(study.uuid)).toEqual({});

    const copy = await nominate(server.api, clinician, study.uuid, groups['PACS Intake']!.uuid);
    expect(await workflowFields(study.uuid)).toMatchObject({ nomination_push_status: '' });
    const rejected = await server.api.call(
      'study/reject',
      { uuid: copy, reason: 'Wrong patient', message: 'Please check' },
      gatekeeper,
    );
    expect(rejected.body.status).toBe('OK');
    // The rejection shows by its own field (is_process_form_rejected), not as a PACS status.
    expect(await workflowFields(study.uuid)).toEqual({});
  }, 90_000);
});
