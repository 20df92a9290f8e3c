import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../support/child-server.js';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

interface Nomination {
  uuid: string;
  study_uuid: string;
  copy_uuid: string;
  status: string;
  push_status: string | null;
  rejection_reason: string | null;
}
interface Attempt {
  status: string;
  reason: string | null;
  destination_name: string;
}

/**
 * The demo world as `npm start` seeds it (SEED_NOMINATIONS=1): PACS Intake's exams were nominated
 * by the clinician from Cardiology and Emergency and decided by the gatekeeper through the
 * services a person uses, so each opens on its real state and history, and a waiting one can still
 * be processed or rejected.
 */
describe.each(DIALECTS)('the demo world’s seeded nominations on %s', (dialect) => {
  let server: TestServer;
  let gatekeeper: string;
  let clinician: string;
  /** PACS Intake's copies, with the nomination each came from, oldest nomination last. */
  let seeded: { copy: string; nomination: Nomination }[];

  const pushes = async (copy: string) =>
    (await server.api.call('study/push/list', { uuid: copy }, gatekeeper)).body.pushes as Attempt[];
  const nominationOf = async (uuid: string, sid = gatekeeper) =>
    (await server.api.call('study/nomination', { uuid }, sid)).body as {
      nomination: Nomination;
      history: Nomination[];
    };

  beforeAll(async () => {
    // 27 studies give PACS Intake's share 4: one of each outcome. The seed's destinations point at
    // the configured DICOM port, so this server listens on a known one.
    server = await startTestServer(dialect, {
      SEED_STUDIES: '27',
      SEED_NOMINATIONS: '1',
      DICOM_PORT: String(await freePort()),
      PUSH_RETRY_MS: '100',
    });
    const world = await demoWorld(server, ['gatekeeper', 'clinician']);
    ({ gatekeeper, clinician } = world.sid);
    const copies = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select('studies.uuid')
      .where('groups.name', '=', 'PACS Intake')
      .execute();
    seeded = [];
    for (const { uuid } of copies)
      seeded.push({ copy: uuid, nomination: (await nominationOf(uuid)).nomination });
  }, 120_000);
  afterAll(() => server?.stop());

  it('made every PACS Intake exam by a nomination, from the clinician’s Cardiology and Emergency', async () => {
    expect(seeded).toHaveLength(4);
    for (const { copy, nomination } of seeded) {
      expect(nomination).toMatchObject({ copy_uuid: copy });
      // The clinician's own study carries the same nomination in its history.
      const theirs = await nominationOf(nomination.study_uuid, clinician);
      expect(theirs.history.map((n) => n.uuid)).toContain(nomination.uuid);
    }
    const sources = await server.ctx.db.kysely
      .selectFrom('studies')
      .innerJoin('groups', 'groups.namespace_id', 'studies.namespace_id')
      .select('groups.name')
      .where(
        'studies.uuid',
        'in',
        seeded.map((s) => s.nomination.study_uuid),
      )
      .execute();
    expect(new Set(sources.map((s) => s.name))).toEqual(new Set(['Cardiology', 'Emergency']));
    const audited = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action'])
      .where('action', 'in', ['NOMINATE', 'REJECT'])
      .execute();
    expect(audited.filter((a) => a.action === 'NOMINATE')).toHaveLength(4);
    expect(audited.filter((a) => a.action === 'REJECT').length).toBeGreaterThan(0);
  });

  it('ends one nomination Completed at PACS Archive and one Failed at the offline PACS, which names it and can be retried', async () => {
    const processed = seeded.filter((s) => s.nomination.push_status !== null);
    expect(processed).toHaveLength(2);
    const ends = await Promise.all(
      processed.map(({ copy }) =>
        until(
          () => pushes(copy),
          (list) => list.length > 0 && !['I', 'N'].includes(list[0]!.status),
          90_000,
        ).then((list) => list[0]!),
      ),
    );
    const completed = ends.find((e) => e.status === 'S');
    const failed = ends.find((e) => e.status === 'F');
    expect(completed).toMatchObject({ destination_name: 'PACS Archive' });
    expect(failed).toMatchObject({ destination_name: 'Radiology PACS (offline)' });
    expect(failed?.reason).toBeTruthy();
    const failedCopy = processed[ends.indexOf(failed!)]!.copy;
    expect((await nominationOf(failedCopy)).nomination.push_status).toBe('F');
    const completedCopy = processed[ends.indexOf(completed!)]!.copy;
    expect((await nominationOf(completedCopy)).nomination.status).toBe('NOMINATION_SUCCESS');

    // Retry: the gatekeeper sends the failed exam again, and the attempt is queued.
    const destinations = (
      await server.api.call('group/get', { uuid: (await groupUuid('PACS Intake'))! }, gatekeeper)
    ).body.gatekeeper_config.destinations as string[];
    const offline = await server.ctx.db.kysely
      .selectFrom('destinations')
      .select('uuid')
      .where('name', '=', 'Radiology PACS (offline)')
      .executeTakeFirstOrThrow();
    expect(destinations).toContain(offline.uuid);
    const retry = await server.api.call(
      'study/push',
      { uuid: failedCopy, destination_id: offline.uuid },
      gatekeeper,
    );
    expect(retry.body.status).toBe('OK');
    expect((await pushes(failedCopy)).length).toBe(2);
  }, 120_000);

  it('keeps a rejected one with its reason, and lets the gatekeeper process the one still waiting', async () => {
    const rejected = seeded.find((s) => s.nomination.status === 'REJECTED');
    expect(rejected?.nomination.rejection_reason).toBe('Duplicate exam');
    const waiting = seeded.filter((s) => s.nomination.status === 'IS_NOMINATED');
    expect(waiting).toHaveLength(1);
    const approved = await server.api.call(
      'study/approve',
      { uuid: waiting[0]!.copy, destination_id: await archiveUuid() },
      gatekeeper,
    );
    expect(approved.body).toMatchObject({ status: 'OK', nomination: { status: 'EVALUATING' } });
    const again = await server.api.call(
      'study/reject',
      { uuid: rejected!.copy, reason: 'x', message: 'y' },
      gatekeeper,
    );
    expect(again.body).toMatchObject({ status: 'ERROR', error_type: 'ALREADY_PROCESSED' });
  });

  async function groupUuid(name: string) {
    return (await server.api.groups(gatekeeper)).find((g) => g.name === name)?.uuid;
  }
  async function archiveUuid() {
    const row = await server.ctx.db.kysely
      .selectFrom('destinations')
      .select('uuid')
      .where('name', '=', 'PACS Archive')
      .executeTakeFirstOrThrow();
    return row.uuid;
  }
});
