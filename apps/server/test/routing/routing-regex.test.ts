import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs } from '../../src/dicom/index.js';
import type { StudySpec } from '../../src/dicom/index.js';
import { newUuid } from '../../src/security/tokens.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { accountIdOf, demoGatewayId } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { eventually } from '../support/until.js';

const QUIET_MS = 600;

/**
 * Files of `spec` whose Patient's Name is `name`, however long: PN allows 64 characters per
 * component group, which our writer enforces, but a sender may send more and the wire (a 16-bit
 * length in explicit VR little endian) carries it. The element is rewritten in the written bytes.
 */
function writeWithPatientName(dir: string, spec: StudySpec, name: string) {
  const placeholder = 'PLACEHOLDER^NAME';
  const value = Buffer.from(name.length % 2 ? `${name} ` : name, 'latin1');
  const element = (text: Buffer) =>
    Buffer.concat([
      Buffer.from([0x10, 0x00, 0x10, 0x00, 0x50, 0x4e, text.length & 0xff, text.length >> 8]),
      text,
    ]);
  for (const [, file] of writeStudyFolder(dir, { ...spec, patientName: placeholder })[0]!.files.entries()) {
    const bytes = Buffer.from(file.bytes);
    const from = element(Buffer.from(placeholder, 'latin1'));
    const at = bytes.indexOf(from);
    expect(at).toBeGreaterThan(0);
    const rewritten = Buffer.concat([
      bytes.subarray(0, at),
      element(value),
      bytes.subarray(at + from.length),
    ]);
    fs.writeFileSync(path.join(dir, `${file.sopInstanceUid}.dcm`), rewritten);
  }
}
const WAIT_MS = 30_000;

/**
 * Regex conditions run on RE2 (decision 0053): patterns that made the JavaScript engine backtrack
 * for hours on a long patient name are evaluated at once while the server keeps answering, and a
 * rule saved before, whose pattern RE2 cannot run, fails with its reason instead of stopping the
 * account's routing.
 */
describe.each(DIALECTS)('routing regex conditions on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let admin: string;
  let accountId: string;
  let gatewayId: string;
  let cardiology: { uuid: string; namespace_id: string };
  let emergency: { uuid: string; namespace_id: string };

  const db = () => server.ctx.db.kysely;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0', ROUTING_QUIET_MS: String(QUIET_MS) });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-routing-regex-'));
    admin = await server.api.login('admin@demo.local');
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
    gatewayId = await demoGatewayId(server.ctx.db);
    const group = (name: string) =>
      db()
        .selectFrom('groups')
        .select(['uuid', 'namespace_id'])
        .where('account_id', '=', accountId)
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
    cardiology = await group('Cardiology');
    emergency = await group('Emergency');
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const studyIn = (namespaceId: string, studyUid: string) =>
    db()
      .selectFrom('studies')
      .selectAll()
      .where('namespace_id', '=', namespaceId)
      .where('study_uid', '=', studyUid)
      .executeTakeFirst();

  it('evaluates catastrophic patterns on a 1,024-character patient name while the server keeps answering', async () => {
    // What the outside test saved (accepted then, frozen for hours at this length), and more.
    const evil = ['.*.*.*.*x', 'a*a*a*a*a*a*b', '(a+)+$', '(a|aa)+$', '.*.*.*.*.*.*.*.*.*.*.*.*x'];
    const saved = await server.api.call(
      'route/add',
      {
        account_id: accountId,
        name: 'Long names',
        for_type: 'sender',
        for_id: gatewayId,
        when: 'harvest',
        match: 'any',
        conditions: JSON.stringify([
          ...evil.map((value) => ({ field: 'patient_name', op: 'regex', value })),
          // Last, one that holds: the rule's action shows the evaluation got through them all.
          { field: 'patient_name', op: 'regex', value: '^a+ z$' },
        ]),
        actions: JSON.stringify([{ type: 'share_group', group_id: cardiology.uuid }]),
      },
      admin,
    );
    expect(saved.body.status, JSON.stringify(saved.body)).toBe('OK');

    const spec = generateStudySpecs(1, 2702, { now: new Date('2026-05-01T00:00:00Z') })[0]!;
    const dir = fs.mkdtempSync(path.join(tmp, 'study-'));
    writeWithPatientName(dir, spec, `${'A'.repeat(1_020)}^Z`);

    // Requests keep being answered from the C-STORE until the rule has run.
    let slowest = 0;
    let done = false;
    const polling = (async () => {
      while (!done) {
        const started = Date.now();
        const answer = await server.api.call('session/user', {}, admin);
        expect(answer.status).toBe(200);
        slowest = Math.max(slowest, Date.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const sent = await sendFolder(dir, server.dicomPort);
    expect(sent.code, sent.output).toBe(0);
    const original = await eventually(
      () => studyIn(emergency.namespace_id, spec.studyInstanceUid),
      'the study',
      WAIT_MS,
    );
    expect(original.patient_name.length).toBeGreaterThanOrEqual(1_000);
    await eventually(
      () => studyIn(cardiology.namespace_id, spec.studyInstanceUid),
      'the routed copy',
      WAIT_MS,
    );
    done = true;
    await polling;
    expect(slowest).toBeLessThan(2_000);
    await db().deleteFrom('routing_rules').execute();
  }, 90_000);

  it('fails a rule saved earlier whose pattern RE2 cannot run, with the reason, and runs the others', async () => {
    await db().deleteFrom('routing_rules').execute();
    const now = Date.now();
    const stored = {
      account_id: accountId,
      for_type: 'sender',
      for_id: gatewayId,
      events: JSON.stringify(['harvest']),
      match: 'all',
      actions: JSON.stringify([{ type: 'share_group', group_id: cardiology.uuid }]),
      disabled: 0,
      created_by: (
        await db()
          .selectFrom('users')
          .select('uuid')
          .where('email', '=', 'admin@demo.local')
          .executeTakeFirstOrThrow()
      ).uuid,
      created: now,
      updated: now,
    };
    // Saved when the JavaScript engine ran patterns: a backreference, which RE2 has not.
    const old = newUuid();
    await db()
      .insertInto('routing_rules')
      .values({
        ...stored,
        uuid: old,
        sequence: 1,
        name: 'Doubled letters',
        conditions: JSON.stringify([{ field: 'patient_name', op: 'regex', value: '(\\w)\\1' }]),
      })
      .execute();
    const plain = newUuid();
    await db()
      .insertInto('routing_rules')
      .values({
        ...stored,
        uuid: plain,
        sequence: 2,
        name: 'Every study',
        conditions: JSON.stringify([{ field: 'patient_name', op: 'contains', value: 'e' }]),
      })
      .execute();

    // The rule still lists, as saved.
    const listed = await server.api.call('route/list', { account_id: accountId }, admin);
    expect(listed.body.status, JSON.stringify(listed.body)).toBe('OK');
    expect(listed.body.routes.map((r: { name: string }) => r.name)).toEqual([
      'Doubled letters',
      'Every study',
    ]);

    const spec: StudySpec = {
      ...generateStudySpecs(1, 2703, { now: new Date('2026-05-01T00:00:00Z') })[0]!,
      patientName: 'LEE^ANNE',
    };
    const dir = fs.mkdtempSync(path.join(tmp, 'study-'));
    writeStudyFolder(dir, spec);
    const sent = await sendFolder(dir, server.dicomPort);
    expect(sent.code, sent.output).toBe(0);
    const original = await eventually(
      () => studyIn(emergency.namespace_id, spec.studyInstanceUid),
      'the study',
      WAIT_MS,
    );
    // The other rule ran.
    await eventually(
      () => studyIn(cardiology.namespace_id, spec.studyInstanceUid),
      'the routed copy',
      WAIT_MS,
    );
    const failure = await eventually(
      () =>
        db()
          .selectFrom('audit_events')
          .selectAll()
          .where('object_id', '=', original.uuid)
          .where('action', '=', 'ROUTE')
          .where('outcome', '=', 'FAILURE')
          .executeTakeFirst(),
      'the failed rule in the history',
      WAIT_MS,
    );
    expect(JSON.parse(failure.detail!)).toMatchObject({
      route_id: old,
      route_name: 'Doubled letters',
      trigger: 'harvest',
      error: expect.stringMatching(/regex condition is not a pattern the safe regex engine \(RE2\) accepts/),
    });
    await db().deleteFrom('routing_rules').execute();
  }, 90_000);
});
