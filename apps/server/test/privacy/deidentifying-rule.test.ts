import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';
import { until } from '../support/until.js';

const PYDICOM = '/usr/lib/python3/dist-packages/pydicom/data/test_files';

/**
 * A routing rule whose share action names a de-identification profile (issue 33, decision 0071):
 * the group receives only the copy the one engine made, and no account may name another's profile.
 */
describe.each(DIALECTS)('a routing rule sharing de-identified on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let partnerAdmin: string;
  let account: string;
  let partnerAccount: string;
  let groups: Record<string, { uuid: string; namespace_id: string }>;
  let profile: string;
  let partnerProfile: string;
  let workDir: string;

  const call = (name: string, params: Record<string, string | number>, sid: string) =>
    server.api.call(name, params, sid);
  const rules = async () =>
    Number(
      (
        await server.ctx.db.kysely
          .selectFrom('routing_rules')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    server = await startTestServer(dialect, { ROUTING_QUIET_MS: '300' });
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'deid-rule-files-'));
    admin = await server.api.login('admin@demo.local');
    partnerAdmin = await server.api.login('partner@demo.local');
    const accounts = await server.ctx.db.kysely.selectFrom('accounts').select(['uuid', 'vanity']).execute();
    account = accounts.find((a) => a.vanity === 'demo')!.uuid;
    partnerAccount = accounts.find((a) => a.vanity === 'partner')!.uuid;
    groups = Object.fromEntries((await server.api.groups(admin)).map((g) => [g.name, g]));
    profile = (await call('anonymization/add', { account_id: account, name: 'Research share' }, admin)).body
      .uuid;
    partnerProfile = (
      await call('anonymization/add', { account_id: partnerAccount, name: 'Partner profile' }, partnerAdmin)
    ).body.uuid;
  });
  afterAll(async () => {
    await server?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  it("refuses another account's profile, or a made-up one, on a share action, adding nothing", async () => {
    const before = await rules();
    const partnerGroup = (await server.api.groups(partnerAdmin))[0]!;
    for (const [sid, accountId, group, id] of [
      [partnerAdmin, partnerAccount, partnerGroup.uuid, profile],
      [admin, account, groups['Cardiology']!.uuid, partnerProfile],
      [admin, account, groups['Cardiology']!.uuid, 'made-up'],
    ] as const) {
      const refused = await call(
        'route/add',
        {
          account_id: accountId,
          name: 'Refused',
          when: 'upload',
          actions: JSON.stringify([{ type: 'share_group', group_id: group, anonymization_id: id }]),
        },
        sid,
      );
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'actions.0' });
    }
    expect(await rules()).toBe(before);
  });

  it('shares an uploaded study into the group only as its de-identified copy', async () => {
    const rule = await call(
      'route/add',
      {
        account_id: account,
        name: 'Emergency to Cardiology, de-identified',
        for_type: 'group',
        for_id: groups['Emergency']!.uuid,
        when: 'upload',
        actions: JSON.stringify([
          { type: 'share_group', group_id: groups['Cardiology']!.uuid, anonymization_id: profile },
        ]),
      },
      admin,
    );
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    expect(rule.body.route.actions[0]).toMatchObject({ anonymization_id: profile });

    const uid = '1.2.826.0.1.3680043.10.1071.21';
    const file = path.join(workDir, 'ct.dcm');
    fs.copyFileSync(path.join(PYDICOM, 'CT_small.dcm'), file);
    execFileSync('dcmodify', [
      '-nb',
      '-m',
      `(0020,000d)=${uid}`,
      '-m',
      '(0010,0010)=Nakamura^Kenji',
      '-m',
      '(0010,0020)=MRN-8841',
      file,
    ]);
    const uploaded = await server.api.upload(admin, groups['Emergency']!.namespace_id, fs.readFileSync(file));
    expect(uploaded.status).toBe(202);

    const inCardiology = () =>
      server.ctx.db.kysely
        .selectFrom('studies')
        .select(['uuid', 'study_uid', 'patient_name', 'patientid'])
        .where('namespace_id', '=', groups['Cardiology']!.namespace_id)
        .where('patient_name', 'like', 'ANONYMOUS^%')
        .execute();
    const [copy] = await until(inCardiology, (list) => list.length > 0);
    expect(copy!.study_uid).not.toBe(uid);
    expect(copy!.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    expect(
      await server.ctx.db.kysely
        .selectFrom('studies')
        .select('uuid')
        .where('namespace_id', '=', groups['Cardiology']!.namespace_id)
        .where('study_uid', '=', uid)
        .execute(),
    ).toEqual([]);
    const files = await server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', copy!.uuid)
      .execute();
    const stored = (await server.ctx.services.blobs.read(files[0]!.blob_key)).toString('latin1');
    for (const value of ['Nakamura', 'Kenji', 'MRN-8841', uid]) expect(stored).not.toContain(value);
    // The share is audited once its copy is complete, which may be after the copy's study row shows.
    const shareEvents = () =>
      server.ctx.db.kysely
        .selectFrom('audit_events')
        .select('detail')
        .where('action', '=', 'CREATE')
        .where('object_type', '=', 'share')
        .orderBy('id', 'desc')
        .execute();
    const [shared] = await until(shareEvents, (events) => events.length > 0);
    expect(JSON.parse(shared!.detail!)).toMatchObject({
      target_id: groups['Cardiology']!.uuid,
      deidentified: { profile, instances: 1 },
    });
  });
});
