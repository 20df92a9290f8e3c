import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateStudySpecs } from '../../src/dicom/index.js';
import { sendFolder } from '../support/storescu.js';
import { writeStudyFolder } from '../support/study-folder.js';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('registered DICOM senders (dicom/node/*) on %s', (dialect) => {
  let server: TestServer;
  let tmp: string;
  let admin: string;
  let account: string;
  let groups: { uuid: string; name: string; namespace_id: string; type: string }[];
  const group = (name: string) => groups.find((g) => g.name === name)!;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-nodes-'));
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
    groups = await server.api.groups(admin);
  });
  afterAll(async () => {
    await server?.stop();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const nodeCount = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('dicom_nodes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  const studyDir = (name: string, seed: number) => {
    const dir = path.join(tmp, name);
    const [spec] = generateStudySpecs(1, seed, { now: new Date('2026-05-01T00:00:00Z') });
    writeStudyFolder(dir, spec!);
    return { dir, studyUid: spec!.studyInstanceUid };
  };

  it('lets the account admin add a sender that can then C-STORE into its group, edit it and delete it', async () => {
    const listed = await server.api.call('dicom/node/list', { account_id: account }, admin);
    expect(listed.body.nodes.map((n: { ae_title: string }) => n.ae_title)).toEqual(['DEMO_GATEWAY']);
    expect(listed.body.nodes[0]).toMatchObject({ host: '127.0.0.1', group_name: 'Emergency' });

    const cardiology = group('Cardiology');
    const added = await server.api.call(
      'dicom/node/add',
      {
        account_id: account,
        ae_title: ' CT_SCANNER_2 ',
        host: '127.0.0.1',
        group_id: cardiology.uuid,
        name: 'CT 2',
      },
      admin,
    );
    expect(added.body).toMatchObject({
      status: 'OK',
      ae_title: 'CT_SCANNER_2',
      host: '127.0.0.1',
      group_id: cardiology.uuid,
      group_name: 'Cardiology',
      namespace_id: cardiology.namespace_id,
      name: 'CT 2',
      account_id: account,
    });
    const uuid = added.body.uuid as string;
    const created = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .selectAll()
      .where('object_id', '=', uuid)
      .execute();
    expect(created.map((e) => [e.action, e.object_type])).toEqual([['CREATE', 'dicom_node']]);

    // The new sender stores into Cardiology.
    const first = studyDir('first', 311);
    expect((await sendFolder(first.dir, server.dicomPort, 'CT_SCANNER_2')).code).toBe(0);
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['namespace_id', 'source_ae_title'])
      .where('study_uid', '=', first.studyUid)
      .executeTakeFirstOrThrow();
    expect(study).toEqual({ namespace_id: cardiology.namespace_id, source_ae_title: 'CT_SCANNER_2' });

    // Moved to another host, it is refused from here.
    const moved = await server.api.call('dicom/node/set', { uuid, host: '10.20.30.40' }, admin);
    expect(moved.body).toMatchObject({ status: 'OK', host: '10.20.30.40', ae_title: 'CT_SCANNER_2' });
    const second = studyDir('second', 312);
    expect((await sendFolder(second.dir, server.dicomPort, 'CT_SCANNER_2')).code).not.toBe(0);
    await server.api.call('dicom/node/set', { uuid, host: '*' }, admin);
    expect((await sendFolder(second.dir, server.dicomPort, 'CT_SCANNER_2')).code).toBe(0);

    // Deleted, it is refused and nothing more is stored.
    expect((await server.api.call('dicom/node/delete', { uuid }, admin)).body.status).toBe('OK');
    const third = studyDir('third', 313);
    expect((await sendFolder(third.dir, server.dicomPort, 'CT_SCANNER_2')).code).not.toBe(0);
    const stored = await server.ctx.db.kysely
      .selectFrom('studies')
      .select('uuid')
      .where('study_uid', '=', third.studyUid)
      .execute();
    expect(stored).toEqual([]);
    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', uuid)
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.action)).toEqual(['CREATE', 'EDIT', 'EDIT', 'DELETE']);
    expect(
      (await server.api.call('dicom/node/list', { account_id: account }, admin)).body.nodes,
    ).toHaveLength(1);
  });

  it('refuses non-admins, other accounts, foreign and non-cloud groups and bad fields, changing nothing', async () => {
    const before = await nodeCount();
    const emergency = group('Emergency');
    const valid = { account_id: account, ae_title: 'NEW_AE', host: '127.0.0.1', group_id: emergency.uuid };
    const error = async (call: string, params: Record<string, string>, sid = admin) =>
      (await server.api.call(call, params, sid)).body.error_type as string;

    // A member who is not an account admin sees no senders at all.
    const clinician = await server.api.login('clinician@demo.local');
    expect(await error('dicom/node/list', { account_id: account }, clinician)).toBe('NOT_FOUND');
    expect(await error('dicom/node/add', valid, clinician)).toBe('NOT_FOUND');
    const demoNode = (await server.api.call('dicom/node/list', { account_id: account }, admin)).body.nodes[0];
    expect(await error('dicom/node/set', { uuid: demoNode.uuid, host: '*' }, clinician)).toBe('NOT_FOUND');
    expect(await error('dicom/node/delete', { uuid: demoNode.uuid }, clinician)).toBe('NOT_FOUND');

    // The admin of another account neither sees these nodes nor may target its groups.
    const partner = await server.api.login('partner@demo.local');
    const partnerAccount = await firstAccountOf(server.api, partner);
    const referrals = (await server.api.groups(partner)).find((g) => g.name === 'Referrals')!;
    expect(await error('dicom/node/list', { account_id: account }, partner)).toBe('NOT_FOUND');
    expect(await error('dicom/node/delete', { uuid: demoNode.uuid }, partner)).toBe('NOT_FOUND');
    expect(await error('dicom/node/add', { ...valid, group_id: referrals.uuid })).toBe('NOT_FOUND');
    expect(
      await error(
        'dicom/node/add',
        { ...valid, account_id: partnerAccount, group_id: emergency.uuid },
        partner,
      ),
    ).toBe('NOT_FOUND');

    // A group of the account that is not a cloud group, and malformed fields.
    expect(await error('dicom/node/add', { ...valid, group_id: group('PACS Intake').uuid })).toBe(
      'INVALID_FIELD',
    );
    for (const ae_title of [
      '',
      'SEVENTEEN_CHARS_X',
      'BACK\\SLASH',
      'TAB\tAE',
      'DEMO_GATEWAY',
      'INBOX',
      'ÄE',
    ]) {
      const answer = (await server.api.call('dicom/node/add', { ...valid, ae_title }, admin)).body;
      expect([answer.error_type, answer.error_subtype], ae_title).toEqual(['INVALID_FIELD', 'ae_title']);
    }
    for (const host of ['', 'pacs.example.org', '300.1.1.1', '10.0.0.1/24']) {
      const answer = (await server.api.call('dicom/node/add', { ...valid, host }, admin)).body;
      expect([answer.error_type, answer.error_subtype], host).toEqual(['INVALID_FIELD', 'host']);
    }
    expect(await error('dicom/node/set', { uuid: demoNode.uuid, ae_title: 'x'.repeat(17) })).toBe(
      'INVALID_FIELD',
    );
    expect(await error('dicom/node/set', { uuid: 'no-such-node', host: '*' })).toBe('NOT_FOUND');
    expect(await error('dicom/node/add', { account_id: account })).toBe('INVALID_FIELD');

    expect(await nodeCount()).toBe(before);
    const unchanged = (await server.api.call('dicom/node/list', { account_id: account }, admin)).body
      .nodes[0];
    expect(unchanged).toEqual(demoNode);
  });

  it("sets the groups a node may query, whether it may retrieve and its port, refusing another account's group", async () => {
    const emergency = group('Emergency');
    const cardiology = group('Cardiology');
    const added = await server.api.call(
      'dicom/node/add',
      {
        account_id: account,
        ae_title: 'VIEWER_QR',
        host: '127.0.0.1',
        group_id: emergency.uuid,
        query_group_ids: `${emergency.uuid}, ${cardiology.uuid}`,
        may_retrieve: '1',
        port: '11120',
      },
      admin,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body).toMatchObject({ may_retrieve: 1, port: 11120 });
    expect([...added.body.query_group_ids].sort()).toEqual([emergency.uuid, cardiology.uuid].sort());

    const partner = await server.api.login('partner@demo.local');
    const referrals = (await server.api.groups(partner)).find((g) => g.name === 'Referrals')!;
    const foreign = await server.api.call(
      'dicom/node/set',
      { uuid: added.body.uuid, query_group_ids: referrals.uuid },
      admin,
    );
    expect(foreign.body.error_type).toBe('NOT_FOUND');
    const bads: Record<string, string>[] = [{ may_retrieve: 'yes' }, { port: '70000' }, { port: 'abc' }];
    for (const bad of bads) {
      const refused = await server.api.call('dicom/node/set', { uuid: added.body.uuid, ...bad }, admin);
      expect(refused.body.error_type).toBe('INVALID_FIELD');
    }
    const unchanged = await server.api.call('dicom/node/list', { account_id: account }, admin);
    expect(unchanged.body.nodes.find((n: { uuid: string }) => n.uuid === added.body.uuid)).toMatchObject({
      may_retrieve: 1,
      port: 11120,
    });
    const cleared = await server.api.call(
      'dicom/node/set',
      { uuid: added.body.uuid, query_group_ids: '', may_retrieve: '0', port: '' },
      admin,
    );
    expect(cleared.body).toMatchObject({ query_group_ids: [], may_retrieve: 0, port: null });
    await server.api.call('dicom/node/delete', { uuid: added.body.uuid }, admin);
  });
});
