import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { accountIdOf, demoGatewayId } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

interface Received {
  method: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver of webhook deliveries; `failFirst` answers 503 to that many requests first. */
async function startSink(): Promise<{
  url: string;
  received: Received[];
  failNext: (n: number) => void;
  stop: () => Promise<void>;
}> {
  const received: Received[] = [];
  let failing = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ method: req.method ?? '', headers: req.headers, body });
      if (failing > 0) {
        failing--;
        res.writeHead(503).end('busy');
      } else res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    failNext: (n) => (failing = n),
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

const QUIET_MS = 600;
// What a study, a route run or a delivery may take to show on a busy machine.
const WAIT_MS = 20_000;

describe.each(DIALECTS)('routing rules and webhooks on real events on %s', (dialect) => {
  let server: TestServer;
  let sink: Awaited<ReturnType<typeof startSink>>;
  let tmp: string;
  let admin: string;
  let accountId: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let gatewayId: string;

  const db = () => server.ctx.db.kysely;
  const call = async (pathName: string, params: Record<string, string | number>, sid = admin) =>
    server.api.call(pathName, params, sid);

  beforeAll(async () => {
    sink = await startSink();
    server = await startTestServer(dialect, {
      SEED_STUDIES: '0',
      ROUTING_QUIET_MS: String(QUIET_MS),
      WEBHOOK_RETRY_MS: '200',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-routing-'));
    admin = await server.api.login('admin@demo.local');
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
    groups = Object.fromEntries(
      (
        await db()
          .selectFrom('groups')
          .select(['uuid', 'name', 'namespace_id'])
          .where('account_id', '=', accountId)
          .execute()
      ).map((g) => [g.name, g]),
    );
    gatewayId = await demoGatewayId(server.ctx.db);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await sink?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** Writes a study's files to a folder of their own and sends them as DEMO_GATEWAY. */
  const cstore = async (spec: StudySpec) => {
    const dir = fs.mkdtempSync(path.join(tmp, 'study-'));
    writeStudyFolder(dir, spec);
    const sent = await sendFolder(dir, server.dicomPort);
    expect(sent.code, sent.output).toBe(0);
  };
  const studyIn = (group: string, studyUid: string) =>
    db()
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', '=', groups[group]!.namespace_id)
      .where('study_uid', '=', studyUid)
      .executeTakeFirst();
  const routeEvents = (studyUuid: string) =>
    db()
      .selectFrom('audit_events')
      .selectAll()
      .where('object_id', '=', studyUuid)
      .where('action', '=', 'ROUTE')
      .orderBy('id')
      .execute();

  const specs = generateStudySpecs(40, 1717, { now: new Date('2026-05-01T00:00:00Z') });
  const only = (modality: string, skip = 0) =>
    specs.filter((s) => s.series.every((series) => series.modality === modality))[skip]!;
  const without = (modality: string) =>
    specs.find((s) => s.series.every((series) => series.modality !== modality))!;

  it('a C-STORE from the gateway triggers a share rule: every CT to Cardiology, once, shown in the history', async () => {
    const rule = await call('route/add', {
      account_id: accountId,
      name: 'Gateway CT to Cardiology',
      for_type: 'sender',
      for_id: gatewayId,
      when: 'harvest',
      conditions: JSON.stringify([{ field: 'modality', op: 'equals', value: 'ct' }]),
      actions: JSON.stringify([{ type: 'share_group', group_id: groups['Cardiology']!.uuid }]),
    });
    expect(rule.body.status, JSON.stringify(rule.body)).toBe('OK');

    const ct = only('CT');
    const other = without('CT');
    await cstore(ct);
    await cstore(other);
    const original = await eventually(
      () => studyIn('Emergency', ct.studyInstanceUid),
      'the CT study',
      WAIT_MS,
    );
    const copy = await eventually(
      () => studyIn('Cardiology', ct.studyInstanceUid),
      'the CT copy in Cardiology',
      WAIT_MS,
    );
    expect(copy.source).toBe('share');
    const history = await eventually(
      async () => {
        const events = await routeEvents(original.uuid);
        return events.length ? events : undefined;
      },
      'the route run',
      WAIT_MS,
    );
    expect(history).toHaveLength(1);
    expect(history[0]!.outcome).toBe('SUCCESS');
    expect(JSON.parse(history[0]!.detail!)).toMatchObject({
      route_id: rule.body.route.uuid,
      route_name: 'Gateway CT to Cardiology',
      trigger: 'harvest',
      action: 'share_group',
      copy_uuid: copy.uuid,
    });
    // The study's History (audit/object) shows the run.
    const seen = await call('audit/object', { uuid: original.uuid, 'filter.action.in': '["ROUTE"]' });
    expect(
      seen.body.events.map((e: { action: string; outcome: string }) => `${e.action}/${e.outcome}`),
    ).toEqual(['ROUTE/SUCCESS']);

    // The other study went quiet too, but does not match.
    const otherStudy = await eventually(
      () => studyIn('Emergency', other.studyInstanceUid),
      'the other study',
      WAIT_MS,
    );
    await new Promise((r) => setTimeout(r, QUIET_MS * 3));
    expect(await studyIn('Cardiology', other.studyInstanceUid)).toBeUndefined();
    expect(await routeEvents(otherStudy.uuid)).toEqual([]);

    // The same study sent again (and the server restarting its jobs) routes nothing twice.
    await cstore(ct);
    await new Promise((r) => setTimeout(r, QUIET_MS * 3));
    expect(await routeEvents(original.uuid)).toHaveLength(1);
    await server.ctx.db.kysely.deleteFrom('routing_rules').execute();
  });

  it('a webhook to a local sink gets a signed delivery, retried after the sink fails, and logged', async () => {
    const hook = await call('webhook/add', {
      account_id: accountId,
      name: 'Sink',
      url: sink.url,
      event: 'study_harvested,study_shared',
    });
    expect(hook.body.status, JSON.stringify(hook.body)).toBe('OK');
    const secret = hook.body.webhook.secret as string;
    sink.failNext(2);
    const before = sink.received.length;
    const spec = only('CT', 1);
    await cstore(spec);
    const study = await eventually(() => studyIn('Emergency', spec.studyInstanceUid), 'the study', WAIT_MS);

    // Two 503s, then a 204: three requests of the same delivery.
    await eventually(() => Promise.resolve(sink.received.length >= before + 3), 'three attempts', WAIT_MS);
    const attempts = sink.received.slice(before);
    const body = JSON.parse(attempts[2]!.body);
    expect(body).toMatchObject({
      event: 'study_harvested',
      account_id: accountId,
      study: { uuid: study.uuid },
    });
    expect(new Set(attempts.map((a) => JSON.parse(a.body).id)).size).toBe(1);
    for (const attempt of attempts) {
      expect(attempt.method).toBe('POST');
      expect(attempt.headers['x-imaging-inbox-event']).toBe('study_harvested');
      const signature = String(attempt.headers['x-imaging-inbox-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(signature)!;
      const expected = createHmac('sha256', secret).update(`${t}.${attempt.body}`).digest('hex');
      expect(v1).toBe(expected);
      // A body changed on the way would not match.
      expect(createHmac('sha256', secret).update(`${t}.${attempt.body} `).digest('hex')).not.toBe(v1);
    }

    const log = await eventually(
      async () => {
        const answer = await call('webhook/delivery/list', { uuid: hook.body.webhook.uuid });
        const entry = answer.body.deliveries?.[0];
        return entry?.status === 'delivered' ? entry : undefined;
      },
      'the delivered entry',
      WAIT_MS,
    );
    expect(log).toMatchObject({
      event: 'study_harvested',
      study_uuid: study.uuid,
      attempts: 3,
      last_status_code: 204,
    });
    await call('webhook/delete', { uuid: hook.body.webhook.uuid });
  });

  it('a rule calls a webhook and sends by hand (study/manual/route), each run in the history', async () => {
    const hook = await call('webhook/add', {
      account_id: accountId,
      name: 'Routed',
      url: sink.url,
      event: 'study_nominated',
    });
    const rule = await call('route/add', {
      account_id: accountId,
      name: 'By hand',
      when: 'manual',
      actions: JSON.stringify([
        { type: 'webhook', webhook_id: hook.body.webhook.uuid },
        { type: 'share_group', group_id: groups['Teaching Files']!.uuid },
      ]),
    });
    expect(rule.body.status, JSON.stringify(rule.body)).toBe('OK');
    const spec = only('CT', 2);
    await cstore(spec);
    const study = await eventually(() => studyIn('Emergency', spec.studyInstanceUid), 'the study', WAIT_MS);
    const viewer = await server.api.login('viewer@demo.local');
    const refused = await call(
      'study/manual/route',
      { route_id: rule.body.route.uuid, uuid: study.uuid },
      viewer,
    );
    expect(refused.body.error_type).toBe('NOT_PERMITTED');
    const before = sink.received.length;
    const ran = await call('study/manual/route', { route_id: rule.body.route.uuid, uuid: study.uuid });
    expect(ran.body).toMatchObject({ status: 'OK', actions: 2 });
    const events = await eventually(
      async () => {
        const e = await routeEvents(study.uuid);
        return e.length >= 2 ? e : undefined;
      },
      'two runs',
      WAIT_MS,
    );
    expect(events.map((e) => `${JSON.parse(e.detail!).action}/${e.outcome}`).sort()).toEqual([
      'share_group/SUCCESS',
      'webhook/SUCCESS',
    ]);
    const delivered = await eventually(
      () =>
        Promise.resolve(sink.received.slice(before).find((r) => JSON.parse(r.body).event === 'study_routed')),
      'the routed delivery',
      WAIT_MS,
    );
    expect(JSON.parse(delivered.body).detail).toMatchObject({
      route_id: rule.body.route.uuid,
      trigger: 'manual',
    });
  });

  it("tells webhooks of a nomination and its rejection, on the nominator's study", async () => {
    const hook = await call('webhook/add', {
      account_id: accountId,
      name: 'Gatekeeping',
      url: sink.url,
      event: '["study_nominated","study_rejected"]',
    });
    const spec = only('CT', 3);
    await cstore(spec);
    const study = await eventually(() => studyIn('Emergency', spec.studyInstanceUid), 'the study', WAIT_MS);
    const clinician = await server.api.login('clinician@demo.local');
    const nominated = await call(
      'study/nominate',
      {
        uuid: study.uuid,
        gatekeeper_id: groups['PACS Intake']!.uuid,
        'customfield-priority': 'Routine',
        'customfield-reason_for_visit': 'Outside MRI',
        'customfield-nominated_by': 'Dr Claire',
      },
      clinician,
    );
    expect(nominated.body.status, JSON.stringify(nominated.body)).toBe('OK');
    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    const rejected = await call(
      'study/reject',
      { uuid: nominated.body.nomination.copy_uuid, reason: 'Duplicate', message: 'Already at PACS' },
      gatekeeper,
    );
    expect(rejected.body.status, JSON.stringify(rejected.body)).toBe('OK');
    const events = await eventually(
      async () => {
        const answer = await call('webhook/delivery/list', { uuid: hook.body.webhook.uuid });
        const list = answer.body.deliveries as { event: string; status: string; study_uuid: string }[];
        return list.length === 2 && list.every((d) => d.status === 'delivered') ? list : undefined;
      },
      'both deliveries',
      WAIT_MS,
    );
    expect(events.map((e) => e.event).sort()).toEqual(['study_nominated', 'study_rejected']);
    expect(events.every((e) => e.study_uuid === study.uuid)).toBe(true);
    await call('webhook/delete', { uuid: hook.body.webhook.uuid });
  });

  it('refuses a webhook to the metadata address, loopback or a private network, and changes nothing', async () => {
    const before = await db().selectFrom('webhooks').select('uuid').execute();
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://10.1.2.3/hook',
      'http://[::1]/hook',
      'http://[fd00::1]/hook',
      'http://192.168.1.10/hook',
      'ftp://example.org/hook',
      'not a url',
    ]) {
      const answer = await call('webhook/add', {
        account_id: accountId,
        name: 'Probe',
        url,
        event: 'study_uploaded',
      });
      expect(answer.body.error_type, url).toBe('INVALID_FIELD');
      expect(answer.body.error_subtype, url).toBe('url');
    }
    expect(await db().selectFrom('webhooks').select('uuid').execute()).toEqual(before);
  });

  it('a delivery to a target refused since it was saved fails at once, without retrying', async () => {
    // Saved while allowed; 127.0.0.2 is loopback too, but not on the operator's allow-list.
    const hook = await call('webhook/add', {
      account_id: accountId,
      name: 'Moved',
      url: sink.url,
      event: 'study_shared',
    });
    const moved = sink.url.replace('127.0.0.1', '127.0.0.2');
    await db()
      .updateTable('webhooks')
      .set({ url: moved })
      .where('uuid', '=', hook.body.webhook.uuid)
      .execute();
    const before = sink.received.length;
    const row = await db()
      .selectFrom('webhooks')
      .selectAll()
      .where('uuid', '=', hook.body.webhook.uuid)
      .executeTakeFirstOrThrow();
    await server.ctx.services.webhooks.queue(row, 'study_shared', null, {});
    const entry = await eventually(
      async () => {
        const answer = await call('webhook/delivery/list', { uuid: hook.body.webhook.uuid });
        const first = answer.body.deliveries?.[0];
        return first?.status === 'failed' ? first : undefined;
      },
      'the failed delivery',
      WAIT_MS,
    );
    expect(entry.attempts).toBe(1);
    expect(entry.last_error).toMatch(/loopback, link-local or private/);
    expect(sink.received.length).toBe(before);
  });
});
