import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWorld } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('gatekeeper and cloud group configuration on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let clinician: string;
  let gatekeeper: string;
  let account: string;
  const groups = new Map<string, string>();

  beforeAll(async () => {
    server = await startTestServer(dialect);
    const world = await demoWorld(server, ['admin', 'clinician', 'gatekeeper']);
    ({ admin, clinician, gatekeeper } = world.sid);
    account = world.account;
    for (const g of Object.values(world.groups)) groups.set(g.name, g.uuid);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const stored = async () =>
    (await server.ctx.db.kysely.selectFrom('group_configs').selectAll().orderBy('group_id').execute()).map(
      (r) => `${r.group_id}:${r.config}`,
    );
  const set = (uuid: string, config: unknown, sid = admin) =>
    server.api.call('group/config/set', { uuid, config: JSON.stringify(config) }, sid);
  const destination = async (name: string, flags: Record<string, string>) =>
    (
      await server.api.call(
        'destination/add',
        {
          account_id: account,
          name,
          aetitle: name.toUpperCase().replace(/\W/g, '_'),
          address: '127.0.0.1',
          port: '4242',
          can_search: '0',
          can_search_mwl: '0',
          can_push: '0',
          ...flags,
        },
        admin,
      )
    ).body.uuid as string;

  it('seeds PACS Intake with its nomination form and lets Emergency and Cardiology nominate to it', async () => {
    const intake = await server.api.call('group/get', { uuid: groups.get('PACS Intake')! }, gatekeeper);
    expect(intake.body).toMatchObject({
      status: 'OK',
      type: 'GATEKEEPER',
      gatekeeper_config: { pacsPromotePreference: 'NONE', queryDestination: null },
    });
    // Its one destination is the demo's own archive (test/gatekeeper/demo-archive.test.ts).
    const [archive, ...others] = intake.body.gatekeeper_config.destinations as string[];
    expect(others).toEqual([]);
    expect((await server.api.call('destination/get', { uuid: archive! }, admin)).body).toMatchObject({
      name: 'PACS Archive',
    });
    const fields = intake.body.gatekeeper_config.customFields as { name: string; required: boolean }[];
    expect(fields.map((f) => f.name)).toContain('reason_for_visit');
    expect(fields.find((f) => f.name === 'priority')).toMatchObject({
      required: true,
      options: ['Routine', 'Priority'],
    });

    const emergency = await server.api.call('group/get', { uuid: groups.get('Emergency')! }, clinician);
    expect(emergency.body).toMatchObject({
      type: 'CLOUD',
      cloud_config: { promoteTo: [groups.get('PACS Intake')] },
      promote_targets: [{ uuid: groups.get('PACS Intake'), name: 'PACS Intake' }],
    });
    expect(emergency.body.promote_targets[0].customFields).toEqual(fields);
    const teaching = await server.api.call('group/get', { uuid: groups.get('Teaching Files')! }, admin);
    expect(teaching.body).toMatchObject({ type: 'LIBRARY' });
    expect(teaching.body.gatekeeper_config).toBeUndefined();
  });

  it('lets the account admin set a gatekeeper config with its destinations, checked against the account', async () => {
    const pacs = await destination('Config PACS', { can_push: '1', can_search_mwl: '1' });
    const cfind = await destination('Config CFind', { can_search: '1' });
    const config = {
      customFields: [{ name: 'reason_for_visit', label: 'Reason for visit', required: true }],
      pacsPromotePreference: 'MWL',
      destinations: [pacs],
      queryDestination: pacs,
    };
    const answer = await set(groups.get('PACS Intake')!, config);
    expect(answer.body).toMatchObject({ status: 'OK', type: 'GATEKEEPER', gatekeeper_config: config });
    const read = await server.api.call('group/get', { uuid: groups.get('PACS Intake')! }, gatekeeper);
    expect(read.body.gatekeeper_config).toEqual(config);
    const audit = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action', 'object_type'])
      .where('object_id', '=', groups.get('PACS Intake')!)
      .execute();
    expect(audit).toContainEqual({ action: 'UPDATE', object_type: 'group_config' });

    // Every refusal names what is wrong and changes nothing.
    const before = await stored();
    const refusals: [unknown, string][] = [
      [{ ...config, destinations: [cfind] }, 'takes no pushes'],
      [{ ...config, destinations: ['00000000-0000-4000-8000-000000000000'] }, 'not a destination'],
      [{ ...config, queryDestination: cfind }, 'does not answer MWL'],
      [{ ...config, queryDestination: null }, 'queryDestination'],
      [{ ...config, pacsPromotePreference: 'HL7' }, 'pacsPromotePreference'],
      [{ ...config, extra: 1 }, 'extra'],
      [{ ...config, customFields: [{ name: 'Bad Name', label: 'x', required: true }] }, 'customFields'],
      [{ ...config, customFields: [config.customFields[0], config.customFields[0]] }, 'unique'],
      [{ promoteTo: [] }, 'customFields'],
    ];
    for (const [bad, why] of refusals) {
      const refused = await set(groups.get('PACS Intake')!, bad);
      expect(refused.status).toBe(412);
      expect(refused.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'config' });
      expect(JSON.stringify(refused.body.error_data)).toContain(why);
    }
    const notJson = await server.api.call(
      'group/config/set',
      { uuid: groups.get('PACS Intake')!, config: '{' },
      admin,
    );
    expect(notJson.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'config' });
    const missing = await server.api.call('group/config/set', { uuid: groups.get('PACS Intake')! }, admin);
    expect(missing.body).toMatchObject({ error_type: 'MISSING_FIELDS' });
    expect(await stored()).toEqual(before);
  });

  it('takes only gatekeeper groups of the account in a cloud promote list, and no config for a library', async () => {
    const before = await stored();
    const toCloud = await set(groups.get('Emergency')!, { promoteTo: [groups.get('Cardiology')] });
    expect(toCloud.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'config' });
    const library = await set(groups.get('Teaching Files')!, { promoteTo: [] });
    expect(library.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'config' });
    expect(await stored()).toEqual(before);

    const cleared = await set(groups.get('Cardiology')!, { promoteTo: [] });
    expect(cleared.body).toMatchObject({ status: 'OK', cloud_config: { promoteTo: [] } });
    const read = await server.api.call('group/get', { uuid: groups.get('Cardiology')! }, clinician);
    expect(read.body).toMatchObject({ cloud_config: { promoteTo: [] }, promote_targets: [] });
  });

  it('refuses anyone but the account admin, as if the group did not exist', async () => {
    const before = await stored();
    for (const sid of [clinician, gatekeeper]) {
      const refused = await set(groups.get('Emergency')!, { promoteTo: [] }, sid);
      expect(refused.body).toMatchObject({ error_type: 'NOT_FOUND', error_subtype: 'group' });
    }
    const partner = await server.api.login('partner@demo.local');
    expect((await set(groups.get('Emergency')!, { promoteTo: [] }, partner)).body.error_type).toBe(
      'NOT_FOUND',
    );
    expect(await stored()).toEqual(before);
  });
});
