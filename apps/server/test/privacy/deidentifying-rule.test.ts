import { beforeAll, describe, expect, it } from 'vitest';
import { usePrivacyWorld } from '../support/privacy-world.js';
import { DIALECTS } from '../support/test-server.js';
import { until } from '../support/until.js';

/**
 * A routing rule whose share action names a de-identification profile (issue 33, decision 0071):
 * the group receives only the copy the one engine made, and no account may name another's profile.
 */
describe.each(DIALECTS)('a routing rule sharing de-identified on %s', (dialect) => {
  const w = usePrivacyWorld(dialect, { ROUTING_QUIET_MS: '300' });
  let profile: string;

  beforeAll(async () => {
    profile = (await w.addProfile('Research share')).uuid;
  });

  it("refuses another account's profile, or a made-up one, on a share action, adding nothing", async () => {
    const before = await w.count('routing_rules');
    const partnerGroup = (await w.server.api.groups(w.partnerAdmin))[0]!;
    for (const [sid, accountId, group, id] of [
      [w.partnerAdmin, w.partnerAccount, partnerGroup.uuid, profile],
      [w.admin, w.account, w.groups['Cardiology']!.uuid, w.partnerProfile],
      [w.admin, w.account, w.groups['Cardiology']!.uuid, 'made-up'],
    ] as const) {
      const refused = await w.call(
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
    expect(await w.count('routing_rules')).toBe(before);
  });

  it('shares an uploaded study into the group only as its de-identified copy', async () => {
    const rule = await w.call(
      'route/add',
      {
        account_id: w.account,
        name: 'Emergency to Cardiology, de-identified',
        for_type: 'group',
        for_id: w.groups['Emergency']!.uuid,
        when: 'upload',
        actions: JSON.stringify([
          { type: 'share_group', group_id: w.groups['Cardiology']!.uuid, anonymization_id: profile },
        ]),
      },
      w.admin,
    );
    expect(rule.status, JSON.stringify(rule.body)).toBe(200);
    expect(rule.body.route.actions[0]).toMatchObject({ anonymization_id: profile });

    const uid = '1.2.826.0.1.3680043.10.1071.21';
    const bytes = w.sample('CT_small.dcm', { uid, patient: 'Nakamura^Kenji', id: 'MRN-8841' });
    const uploaded = await w.server.api.upload(w.admin, w.groups['Emergency']!.namespace_id, bytes);
    expect(uploaded.status).toBe(202);

    const inCardiology = () =>
      w.server.ctx.db.kysely
        .selectFrom('studies')
        .select(['uuid', 'study_uid', 'patient_name', 'patientid'])
        .where('namespace_id', '=', w.groups['Cardiology']!.namespace_id)
        .where('patient_name', 'like', 'ANONYMOUS^%')
        .execute();
    const [copy] = await until(inCardiology, (list) => list.length > 0);
    expect(copy!.study_uid).not.toBe(uid);
    expect(copy!.patientid).toMatch(/^ANON[0-9A-F]{12}$/);
    expect(
      await w.server.ctx.db.kysely
        .selectFrom('studies')
        .select('uuid')
        .where('namespace_id', '=', w.groups['Cardiology']!.namespace_id)
        .where('study_uid', '=', uid)
        .execute(),
    ).toEqual([]);
    const files = await w.server.ctx.db.kysely
      .selectFrom('instances')
      .select('blob_key')
      .where('study_uuid', '=', copy!.uuid)
      .execute();
    const stored = (await w.server.ctx.services.blobs.read(files[0]!.blob_key)).toString('latin1');
    for (const value of ['Nakamura', 'Kenji', 'MRN-8841', uid]) expect(stored).not.toContain(value);
    // The share is audited once its copy is complete, which may be after the copy's study row shows.
    const shareEvents = () =>
      w.server.ctx.db.kysely
        .selectFrom('audit_events')
        .select('detail')
        .where('action', '=', 'CREATE')
        .where('object_type', '=', 'share')
        .orderBy('id', 'desc')
        .execute();
    const [shared] = await until(shareEvents, (events) => events.length > 0);
    expect(JSON.parse(shared!.detail!)).toMatchObject({
      target_id: w.groups['Cardiology']!.uuid,
      deidentified: { profile, instances: 1 },
    });
  });
});
