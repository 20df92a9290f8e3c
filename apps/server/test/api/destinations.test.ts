import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('destinations (destination/*) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let account: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
    account = await firstAccountOf(server.api, admin);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const counts = async () => {
    const db = server.ctx.db.kysely;
    const count = async (table: 'destinations' | 'dicom_nodes' | 'audit_events') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { destinations: await count('destinations'), nodes: await count('dicom_nodes') };
  };
  const valid = () => ({
    account_id: account,
    name: 'Main PACS',
    aetitle: 'MAIN_PACS',
    address: '127.0.0.1',
    port: '4242',
    can_search: '1',
    can_search_mwl: '0',
    can_push: '1',
  });

  it('lets the account admin add, read, list, edit and delete a destination, with its sender registration', async () => {
    const added = await server.api.call('destination/add', { ...valid(), c_echo_interval: '300' }, admin);
    expect(added.body).toMatchObject({
      status: 'OK',
      account_id: account,
      name: 'Main PACS',
      aetitle: 'MAIN_PACS',
      address: '127.0.0.1',
      port: 4242,
      can_search: 1,
      can_search_mwl: 0,
      can_push: 1,
      c_echo_interval: 300,
      last_echo: null,
    });
    const uuid = added.body.uuid as string;

    // Its PACS is now an allowed sender, with no group of its own, tied to the destination.
    const nodes = (await server.api.call('dicom/node/list', { account_id: account }, admin)).body.nodes;
    const node = nodes.find((n: { ae_title: string }) => n.ae_title === 'MAIN_PACS');
    expect(node).toMatchObject({ host: '127.0.0.1', group_id: null, destination_id: uuid });
    // That sender follows the destination: it is edited and deleted through it.
    expect(
      (await server.api.call('dicom/node/set', { uuid: node.uuid, host: '*' }, admin)).body.error_type,
    ).toBe('INVALID_FIELD');
    expect((await server.api.call('dicom/node/delete', { uuid: node.uuid }, admin)).body.error_type).toBe(
      'INVALID_FIELD',
    );

    const got = await server.api.call('destination/get', { uuid }, admin);
    expect(got.body).toMatchObject({ uuid, name: 'Main PACS' });

    const other = await server.api.call(
      'destination/add',
      { ...valid(), name: 'Archive', aetitle: 'ARCHIVE', address: 'localhost', port: '104' },
      admin,
    );
    expect(other.body).toMatchObject({ status: 'OK', address: 'localhost' });
    const archiveNode = (
      await server.api.call('dicom/node/list', { account_id: account }, admin)
    ).body.nodes.find((n: { ae_title: string }) => n.ae_title === 'ARCHIVE');
    // A host name is registered as the address it resolves to.
    expect(['127.0.0.1', '::1']).toContain(archiveNode.host);

    const list = await server.api.call('destination/list', { account_id: account }, admin);
    expect(list.body.destinations.map((d: { name: string }) => d.name)).toEqual([
      'Archive',
      'Main PACS',
      // The demo world's own (our listener under a second AE title).
      'PACS Archive',
    ]);
    const filtered = await server.api.call(
      'destination/list',
      { account_id: account, 'filter.uuid.in': JSON.stringify([uuid]) },
      admin,
    );
    expect(filtered.body.destinations.map((d: { uuid: string }) => d.uuid)).toEqual([uuid]);

    const edited = await server.api.call(
      'destination/set',
      {
        uuid,
        aetitle: 'MAIN_PACS_2',
        address: '203.0.113.7',
        port: '11112',
        can_push: '0',
        c_echo_interval: '0',
      },
      admin,
    );
    expect(edited.body).toMatchObject({
      aetitle: 'MAIN_PACS_2',
      address: '203.0.113.7',
      port: 11112,
      can_push: 0,
      can_search: 1,
      c_echo_interval: null,
    });
    const moved = (await server.api.call('dicom/node/list', { account_id: account }, admin)).body.nodes.find(
      (n: { destination_id: string | null }) => n.destination_id === uuid,
    );
    expect(moved).toMatchObject({ ae_title: 'MAIN_PACS_2', host: '203.0.113.7' });

    expect((await server.api.call('destination/delete', { uuid }, admin)).body.status).toBe('OK');
    expect((await server.api.call('destination/get', { uuid }, admin)).body.error_type).toBe('NOT_FOUND');
    const left = (await server.api.call('dicom/node/list', { account_id: account }, admin)).body.nodes;
    expect(left.some((n: { destination_id: string | null }) => n.destination_id === uuid)).toBe(false);

    const events = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select('action')
      .where('object_id', '=', uuid)
      .where('object_type', '=', 'destination')
      .orderBy('id')
      .execute();
    expect(events.map((e) => e.action)).toEqual(['CREATE', 'EDIT', 'DELETE']);
    await server.api.call('destination/delete', { uuid: other.body.uuid }, admin);
  });

  it('shows destinations to members who may search or push with them, and lets only admins manage them', async () => {
    const added = await server.api.call('destination/add', { ...valid(), aetitle: 'SEEN_PACS' }, admin);
    const uuid = added.body.uuid as string;
    const gatekeeper = await server.api.login('gatekeeper@demo.local');
    const clinician = await server.api.login('clinician@demo.local');
    const partner = await server.api.login('partner@demo.local');

    // destination_search / study_push in a group of the account: sees them.
    const seen = await server.api.call('destination/list', { account_id: account }, gatekeeper);
    // (PACS Archive is the demo world's own destination.)
    expect(
      seen.body.destinations
        .filter((d: { name: string }) => d.name !== 'PACS Archive')
        .map((d: { uuid: string }) => d.uuid),
    ).toEqual([uuid]);
    expect((await server.api.call('destination/get', { uuid }, gatekeeper)).body.uuid).toBe(uuid);
    // …but cannot manage them.
    for (const [call, params] of [
      ['destination/add', { ...valid(), aetitle: 'GK_PACS' }],
      ['destination/set', { uuid, name: 'Renamed' }],
      ['destination/delete', { uuid }],
      ['destination/echo', { uuid }],
    ] as const) {
      expect((await server.api.call(call, params, gatekeeper)).body.error_type).toBe('NOT_FOUND');
    }
    // Neither permission, or another account's admin: nothing is there.
    for (const sid of [clinician, partner]) {
      expect((await server.api.call('destination/list', { account_id: account }, sid)).body.error_type).toBe(
        'NOT_FOUND',
      );
      expect((await server.api.call('destination/get', { uuid }, sid)).body.error_type).toBe('NOT_FOUND');
    }
    expect((await server.api.call('destination/get', { uuid }, admin)).body.name).toBe('Main PACS');
    await server.api.call('destination/delete', { uuid }, admin);
  });

  it('refuses missing and bad fields with a clear error and changes nothing', async () => {
    const before = await counts();
    const error = async (call: string, params: Record<string, string>) => {
      const answer = await server.api.call(call, params, admin);
      expect(answer.status).toBe(412);
      return [answer.body.error_type, answer.body.error_subtype];
    };
    const { port: _port, name: _name, ...withoutPortAndName } = valid();
    expect(await error('destination/add', withoutPortAndName)).toEqual(['MISSING_FIELDS', 'name,port']);
    expect(await error('destination/add', { ...valid(), aetitle: 'WAY_TOO_LONG_AE_TITLE' })).toEqual([
      'INVALID_FIELD',
      'aetitle',
    ]);
    expect(await error('destination/add', { ...valid(), aetitle: 'BACK\\SLASH' })).toEqual([
      'INVALID_FIELD',
      'aetitle',
    ]);
    // Our own AE title, and an AE title an existing sender already has.
    expect(await error('destination/add', { ...valid(), aetitle: 'INBOX' })).toEqual([
      'INVALID_FIELD',
      'aetitle',
    ]);
    expect(await error('destination/add', { ...valid(), aetitle: 'DEMO_GATEWAY' })).toEqual([
      'INVALID_FIELD',
      'aetitle',
    ]);
    expect(await error('destination/add', { ...valid(), address: 'not an address!' })).toEqual([
      'INVALID_FIELD',
      'address',
    ]);
    expect(await error('destination/add', { ...valid(), address: 'no-such-host.invalid' })).toEqual([
      'INVALID_FIELD',
      'address',
    ]);
    for (const port of ['0', '65536', '12.5', 'abc', '-1']) {
      expect(await error('destination/add', { ...valid(), port })).toEqual(['INVALID_FIELD', 'port']);
    }
    expect(await error('destination/add', { ...valid(), can_push: 'yes' })).toEqual([
      'INVALID_FIELD',
      'can_push',
    ]);
    expect(await error('destination/add', { ...valid(), c_echo_interval: '5' })).toEqual([
      'INVALID_FIELD',
      'c_echo_interval',
    ]);
    expect(await error('destination/add', { ...valid(), name: 'x'.repeat(101) })).toEqual([
      'INVALID_FIELD',
      'name',
    ]);
    expect(await error('destination/add', { ...valid(), account_id: 'no-such-account' })).toEqual([
      'NOT_FOUND',
      'account',
    ]);
    expect(await error('destination/list', { account_id: account, 'filter.uuid.in': '[1,' })).toEqual([
      'INVALID_FIELD',
      'filter.uuid.in',
    ]);
    expect(await counts()).toEqual(before);

    // A bad edit leaves the destination as it was.
    const uuid = (await server.api.call('destination/add', { ...valid(), aetitle: 'EDIT_PACS' }, admin)).body
      .uuid as string;
    const stored = (await server.api.call('destination/get', { uuid }, admin)).body;
    expect(await error('destination/set', { uuid, name: 'Renamed', port: '99999' })).toEqual([
      'INVALID_FIELD',
      'port',
    ]);
    expect(await error('destination/set', { uuid, name: '   ' })).toEqual(['INVALID_FIELD', 'name']);
    expect(await error('destination/set', { uuid: 'no-such-destination', name: 'x' })).toEqual([
      'NOT_FOUND',
      'destination',
    ]);
    expect(await error('destination/echo', { uuid: 'no-such-destination' })).toEqual([
      'NOT_FOUND',
      'destination',
    ]);
    expect((await server.api.call('destination/get', { uuid }, admin)).body).toEqual(stored);
    await server.api.call('destination/delete', { uuid }, admin);
  });

  it('refuses bad searches and retrieves with a clear error, starting nothing', async () => {
    const uuid = (await server.api.call('destination/add', { ...valid(), aetitle: 'SEARCH_PACS' }, admin))
      .body.uuid as string;
    const noSearch = (
      await server.api.call('destination/add', { ...valid(), aetitle: 'PUSH_ONLY', can_search: '0' }, admin)
    ).body.uuid as string;
    const cardiology = await server.api.namespaceOf(admin, 'Cardiology');
    const partner = await server.api.login('partner@demo.local');
    const referrals = (await server.api.groups(partner))[0]!.namespace_id;
    const clinician = await server.api.login('clinician@demo.local');
    const db = server.ctx.db.kysely;
    const searches = async () =>
      Number(
        (
          await db
            .selectFrom('destination_searches')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const jobs = async () =>
      Number(
        (
          await db
            .selectFrom('jobs')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = [await searches(), await jobs()];
    const error = async (params: Record<string, string>, sid = admin) => {
      const answer = await server.api.call('destination/search', params, sid);
      expect(answer.status).toBe(412);
      return [answer.body.error_type, answer.body.error_subtype, answer.body.error_data];
    };
    const base = { uuid, copy_to: cardiology };
    expect(await error({ uuid })).toEqual(['MISSING_FIELDS', 'copy_to', ['copy_to']]);
    // No criterion at all (an All modality is none).
    expect(await error({ ...base, modality: 'All' })).toEqual([
      'MISSING_FIELDS',
      'criterion',
      'Please enter a value to perform search.',
    ]);
    expect((await error({ ...base, patient_name: 'DOE', start_datetime: '2999-01-01' }))[1]).toBe(
      'start_datetime',
    );
    expect((await error({ ...base, patient_name: 'DOE', end_datetime: '2024-02-30' }))[1]).toBe(
      'end_datetime',
    );
    expect(
      (
        await error({
          ...base,
          patient_name: 'DOE',
          start_datetime: '2024-03-01',
          end_datetime: '2024-02-01',
        })
      )[1],
    ).toBe('start_datetime');
    expect((await error({ ...base, patient_name: 'A\\B' }))[1]).toBe('patient_name');
    expect((await error({ ...base, modality: 'C T' }))[1]).toBe('modality');
    expect((await error({ ...base, query_fields: '{"00100010":"X"}' }))[1]).toBe('query_fields');
    expect((await error({ ...base, query_fields: 'not json' }))[1]).toBe('query_fields');
    expect(await error({ uuid: noSearch, copy_to: cardiology, patient_name: 'DOE' })).toEqual([
      'INVALID_FIELD',
      'uuid',
      'this destination cannot be searched',
    ]);
    // Another account's group, a made-up destination, or no destination_search in the group: not found.
    expect((await error({ ...base, copy_to: referrals, patient_name: 'DOE' }))[0]).toBe('NOT_FOUND');
    expect((await error({ ...base, uuid: 'no-such', patient_name: 'DOE' }))[0]).toBe('NOT_FOUND');
    expect((await error({ ...base, patient_name: 'DOE' }, clinician))[0]).toBe('NOT_FOUND');
    expect([await searches(), await jobs()]).toEqual(before);

    // A valid search starts; its poll and retrieve are refused to those who may not retrieve there.
    const started = await server.api.call('destination/search', { ...base, patient_name: 'DOE' }, admin);
    expect(started.body).toMatchObject({ status: 'OK', uuid: expect.any(String) });
    const poll = await server.api.call('destination/search/get', { uuid: started.body.uuid }, clinician);
    expect(poll.body.error_type).toBe('NOT_FOUND');
    const retrieve = (params: Record<string, string>, sid = admin) =>
      server.api
        .call('destination/retrieve', params, sid)
        .then((a) => [a.body.error_type, a.body.error_subtype]);
    expect(await retrieve({ destination_search_id: started.body.uuid })).toEqual([
      'MISSING_FIELDS',
      'study_uid',
    ]);
    expect(await retrieve({ destination_search_id: started.body.uuid, study_uid: '1.2.3' })).toEqual([
      'NOT_FOUND',
      'study',
    ]);
    expect(
      await retrieve({ destination_search_id: started.body.uuid, study_uid: '1.2.3' }, clinician),
    ).toEqual(['NOT_FOUND', 'destination_search']);
    await server.api.call('destination/delete', { uuid }, admin);
    await server.api.call('destination/delete', { uuid: noSearch }, admin);
  });
});
