import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Study } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const run = promisify(execFile);

/**
 * A study's `routes` and `hl7` (SPEC.md section 3, Study): the routing rules that ran on it with
 * their outcome, and the HL7 messages that touched it (its accession number's order and result,
 * sent over MLLP). Each caller sees only what they may: rule runs with route_view, orders with
 * order_view, results with the study.
 */
describe.each(DIALECTS)("a study's routes and hl7 on %s", (dialect) => {
  let server: TestServer;
  let dir: string;
  let admin: string;
  let clinician: string;
  let study: { uuid: string; accession_number: string };
  let other: string;
  let routeId: string;

  const get = (uuid: string, sid: string) =>
    server.api.call('study/get', { uuid }, sid).then((r) => r.body as Study & { status: string });
  const listed = (uuid: string, sid: string) =>
    server.api
      .call('study/list', { 'filter.uuid.equals': uuid }, sid)
      .then((r) => (r.body.studies as Study[])[0]!);

  let sent = 0;
  const send = async (segments: string[]) => {
    const file = path.join(dir, `m${++sent}.hl7`);
    fs.writeFileSync(file, segments.join('\n') + '\n');
    const { stdout } = await run(
      'mllp_send',
      ['--loose', '-p', String(server.hl7Port), '-f', file, '127.0.0.1'],
      {
        timeout: 30_000,
      },
    );
    expect(stdout).toContain('|AA|');
  };
  const msh = (type: string, id: string) =>
    `MSH|^~\\&|RIS|HOSP|INBOX|DEMO|20261127101500||${type}|${id}|P|2.3`;
  const obr = (fields: Record<number, string>) => {
    const last = Math.max(...Object.keys(fields).map(Number));
    return ['OBR', ...Array.from({ length: last }, (_, i) => fields[i + 1] ?? '')].join('|');
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-study-hl7-'));
    server = await startTestServer(dialect, { HL7_PORT: '0' });
    const world = await demoWorld(server, ['admin', 'clinician']);
    ({ admin, clinician } = world.sid);
    const cardiology = world.groups['Cardiology']!;
    const rows = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'accession_number'])
      .where('namespace_id', '=', cardiology.namespace_id)
      .where('deleted', 'is', null)
      .where('accession_number', '!=', '')
      .orderBy('uuid')
      .limit(2)
      .execute();
    expect(rows).toHaveLength(2);
    study = rows[0]!;
    other = rows[1]!.uuid;

    // The study's accession number ordered (ORM^O01), then reported (ORU^R01).
    const accession = study.accession_number;
    await send([
      msh('ORM^O01', 'RT-ORM-1'),
      'PID|1||MRN-RT^^^HOSP||ROUTED^RUTH||19700101|F',
      `ORC|NW|PL-${accession}|${accession}||SC`,
      obr({ 1: '1', 2: `PL-${accession}`, 3: accession, 4: 'CT-HEAD^CT HEAD', 18: accession, 24: 'CT' }),
    ]);
    await send([
      msh('ORU^R01', 'RT-ORU-1'),
      'PID|1||MRN-RT^^^HOSP||ROUTED^RUTH||19700101|F',
      obr({ 1: '1', 3: accession, 4: 'CT-HEAD^CT HEAD', 18: accession, 25: 'F' }),
      'OBX|1|TX|REPORT^Report||Normal study.||||||F',
    ]);

    // A rule run by hand on the study.
    const rule = await server.api.call(
      'route/add',
      {
        account_id: world.account,
        name: 'Copy to Teaching',
        when: 'manual',
        actions: JSON.stringify([{ type: 'share_group', group_id: world.groups['Teaching Files']!.uuid }]),
      },
      admin,
    );
    routeId = rule.body.route.uuid as string;
    const ran = await server.api.call('study/manual/route', { route_id: routeId, uuid: study.uuid }, admin);
    expect(ran.body).toMatchObject({ status: 'OK' });
    await until(
      () => get(study.uuid, admin),
      (s) => s.routes?.length > 0,
    );
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  const expectedRoute = () => ({
    route_id: routeId,
    route_name: 'Copy to Teaching',
    trigger: 'manual',
    action: 'share_group',
    outcome: 'SUCCESS',
    reason: null,
    at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
  const order = { type: 'ORM^O01', control_id: 'RT-ORM-1', event: 'ORDER_ADD', status: null };
  const result = { type: 'ORU^R01', control_id: 'RT-ORU-1', event: 'HL7_RESULT', status: 'Final' };

  it('answers the rule runs and the HL7 messages on study/get and study/list', async () => {
    for (const s of [await get(study.uuid, admin), await listed(study.uuid, admin)]) {
      expect(s.routes).toEqual([expectedRoute()]);
      // Newest first: the result came after the order.
      expect(s.hl7).toEqual([
        { ...result, at: expect.stringMatching(/^\d{4}-/) },
        { ...order, at: expect.stringMatching(/^\d{4}-/) },
      ]);
    }
  });

  it('answers empty lists for a study nothing touched', async () => {
    const s = await get(other, admin);
    expect(s.routes).toEqual([]);
    expect(s.hl7).toEqual([]);
  });

  it('shows a member without route_view and order_view only the results', async () => {
    const s = await get(study.uuid, clinician);
    expect(s.status).toBe('OK');
    expect(s.routes).toEqual([]);
    expect(s.hl7).toEqual([{ ...result, at: expect.any(String) }]);
    expect((await listed(study.uuid, clinician)).hl7).toEqual([{ ...result, at: expect.any(String) }]);
  });
});
