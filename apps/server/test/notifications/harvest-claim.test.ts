import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HarvestNotifier } from '../../src/notifications/harvest-notifier.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Several app processes flush pending harvest mails from the same database: each pending study
 * must be mailed once. Two notifiers over the server's database stand for two processes.
 */
describe.each(DIALECTS)('harvest mail claims on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    // A long quiet period: the server's own timer stays out of the way; the test drives flushDue.
    server = await startTestServer(dialect, { SEED_STUDIES: '8', HARVEST_MAIL_QUIET_MS: '3600000' });
  });
  afterAll(() => server?.stop());

  it('mails each pending study once when two processes flush at the same time', async () => {
    const { repos, services } = server.ctx;
    const db = server.ctx.db.kysely;
    const emergency = await db
      .selectFrom('groups')
      .select(['namespace_id', 'account_id'])
      .where('name', '=', 'Emergency')
      .executeTakeFirstOrThrow();
    const clinician = await server.api.login('clinician@demo.local');
    await server.api.get('user/event/set', {
      sid: clinician,
      namespace_id: emergency.namespace_id,
      event_harvest: 1,
    });
    const studies = await db
      .selectFrom('studies')
      .select('uuid')
      .where('namespace_id', '=', emergency.namespace_id)
      .execute();
    expect(studies.length).toBeGreaterThan(1);
    // The seeded studies were last touched at boot: quiet for a 10 ms quiet period.
    await new Promise((r) => setTimeout(r, 20));
    for (const { uuid } of studies)
      await repos.harvestNotices.add({
        study_uuid: uuid,
        account_id: emergency.account_id,
        namespace_id: emergency.namespace_id,
        source_ae_title: 'DEMO_GATEWAY',
        created: 0,
        due_at: 0,
      });
    const processOf = () =>
      new HarvestNotifier({
        notices: repos.harvestNotices,
        studies: repos.studies,
        accounts: repos.accounts,
        nodes: repos.dicomNodes,
        userEvents: repos.userEvents,
        mailer: services.mailer,
        publicUrl: 'http://inbox.example',
        quietMs: 10,
        log: () => undefined,
      });
    const [a, b] = await Promise.all([processOf().flushDue(), processOf().flushDue()]);
    expect(a + b).toBe(studies.length);
    const mails = await db
      .selectFrom('outbox')
      .select(['to_address', 'body'])
      .where('subject', '=', 'New exam received in Emergency')
      .execute();
    expect(mails).toHaveLength(studies.length);
    for (const { uuid } of studies) expect(mails.filter((m) => m.body.includes(uuid))).toHaveLength(1);
    expect(await db.selectFrom('harvest_notices').select('study_uuid').execute()).toEqual([]);
  });
});
