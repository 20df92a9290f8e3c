import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeRegexProblem } from '@imaging-inbox/contract';
import { accountIdOf, demoGatewayId } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe('routeRegexProblem', () => {
  it('accepts plain patterns, and those only a backtracking engine chokes on, and refuses invalid or costly ones', () => {
    for (const ok of [
      '^CT$',
      'chest|abdomen',
      '^(CT|MR)$',
      '[a-z]+ [0-9]{2,4}',
      '(?:head)?neck',
      'a{2}b*',
      '\\(x+\\)+',
      // RE2 runs these in linear time (decision 0053): no longer refused.
      '(a+)+',
      '(a|a)*',
      '.*.*.*.*x',
    ])
      expect(routeRegexProblem(ok), ok).toBeNull();
    for (const bad of ['a{101}', '(.{1,50}){3}', '[^x]{11}', '(\\p{L}\\d){1,20}'])
      expect(routeRegexProblem(bad), bad).toMatch(/repeats too much/);
    expect(routeRegexProblem('(')).toMatch(/not a valid regular expression/);
    expect(routeRegexProblem('(a)\\1')).toMatch(/backreferences/);
    expect(routeRegexProblem('a(?=b)')).toMatch(/lookarounds/);
    expect(routeRegexProblem('')).toMatch(/empty/);
  });
});

describe.each(DIALECTS)('routing rules (route/*) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let viewer: string;
  let accountId: string;
  let cardiology: string;
  let gateway: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '0' });
    admin = await server.api.login('admin@demo.local');
    viewer = await server.api.login('viewer@demo.local');
    const db = server.ctx.db.kysely;
    accountId = await accountIdOf(server.ctx.db, 'Demo Hospital');
    cardiology = (
      await db.selectFrom('groups').select('uuid').where('name', '=', 'Cardiology').executeTakeFirstOrThrow()
    ).uuid;
    gateway = await demoGatewayId(server.ctx.db);
  }, 120_000);
  afterAll(() => server?.stop());

  const call = (path: string, params: Record<string, string | number>, sid = admin) =>
    server.api.call(path, params, sid);
  const share = JSON.stringify([{ type: 'share_group', group_id: '' }]);
  const rule = (name: string, extra: Record<string, string | number> = {}) => ({
    account_id: accountId,
    name,
    when: 'harvest,upload',
    for_type: 'sender',
    for_id: gateway,
    match: 'any',
    conditions: JSON.stringify([
      { field: 'modality', op: 'equals', value: 'CT' },
      { field: 'study_description', op: 'regex', value: '^chest' },
      { field: 'custom:Referring ward', op: 'contains', value: 'cardio' },
    ]),
    actions: JSON.stringify([{ type: 'share_group', group_id: cardiology }]),
    ...extra,
  });
  const names = async () =>
    ((await call('route/list', { account_id: accountId })).body.routes as { name: string }[]).map(
      (r) => r.name,
    );

  it('adds, reads, reorders, edits and deletes rules; each change is audited', async () => {
    const first = await call('route/add', rule('CT to Cardiology'));
    expect(first.body.status, JSON.stringify(first.body)).toBe('OK');
    expect(first.body.route).toMatchObject({
      name: 'CT to Cardiology',
      for: { type: 'sender', id: gateway },
      when: ['harvest', 'upload'],
      match: 'any',
      disabled: 0,
      actions: [{ type: 'share_group', group_id: cardiology }],
    });
    expect(first.body.route.conditions).toHaveLength(3);
    const second = await call('route/add', rule('Second', { disabled: 1 }));
    expect(second.body.route.sequence).toBeGreaterThan(first.body.route.sequence);
    expect(await names()).toEqual(['CT to Cardiology', 'Second']);

    // Reorder: the second rule moves before the first.
    const moved = await call('route/set', { uuid: second.body.route.uuid, sequence: 0 });
    expect(moved.body.route.sequence).toBe(0);
    expect(await names()).toEqual(['Second', 'CT to Cardiology']);

    const got = await call('route/get', { uuid: first.body.route.uuid });
    expect(got.body.route).toEqual(first.body.route);
    const edited = await call('route/set', {
      uuid: first.body.route.uuid,
      name: 'CT only',
      for_type: '',
      for_id: '',
    });
    expect(edited.body.route).toMatchObject({ name: 'CT only', for: null });

    await call('route/delete', { uuid: second.body.route.uuid });
    expect(await names()).toEqual(['CT only']);
    const gone = await call('route/get', { uuid: second.body.route.uuid });
    expect(gone.body.error_type).toBe('NOT_FOUND');

    const audited = await server.ctx.db.kysely
      .selectFrom('audit_events')
      .select(['action'])
      .where('object_type', '=', 'route')
      .orderBy('id')
      .execute();
    expect(audited.map((a) => a.action)).toEqual(['CREATE', 'CREATE', 'EDIT', 'EDIT', 'DELETE']);
    await call('route/delete', { uuid: first.body.route.uuid });
  });

  it('refuses bad input with a clear error and stores nothing', async () => {
    const refusals: [Record<string, string | number>, string, RegExp?][] = [
      [
        rule('Costly regex', {
          conditions: JSON.stringify([{ field: 'patient_name', op: 'regex', value: '(.{1,100}){1,10}z' }]),
        }),
        'conditions',
        /regex repeats too much/,
      ],
      [
        rule('Backreference', {
          conditions: JSON.stringify([{ field: 'patient_name', op: 'regex', value: '(a)\\1' }]),
        }),
        'conditions',
        /regex may not use backreferences/,
      ],
      [
        rule('Not RE2', {
          conditions: JSON.stringify([
            { field: 'modality', op: 'equals', value: 'CT' },
            { field: 'patient_name', op: 'regex', value: '[\\b]' },
          ]),
        }),
        'conditions',
        /1\.value: regex is not a pattern the safe regex engine \(RE2\) accepts/,
      ],
      [
        rule('Broken regex', {
          conditions: JSON.stringify([{ field: 'patient_name', op: 'regex', value: '([' }]),
        }),
        'conditions',
        /not a valid regular expression/,
      ],
      [
        rule('Unknown field', { conditions: JSON.stringify([{ field: 'mrn', op: 'equals', value: 'x' }]) }),
        'conditions',
      ],
      [rule('Not JSON', { conditions: '[{' }), 'conditions', /must be JSON/],
      [rule('No action', { actions: '[]' }), 'actions', /at least one action/],
      [rule('Unknown group', { actions: share }), 'actions'],
      [
        rule('Made-up group', { actions: JSON.stringify([{ type: 'share_group', group_id: 'nope' }]) }),
        'actions.0',
        /no such group/,
      ],
      [
        rule('Made-up webhook', { actions: JSON.stringify([{ type: 'webhook', webhook_id: 'nope' }]) }),
        'actions.0',
      ],
      [
        rule('Made-up code', { actions: JSON.stringify([{ type: 'share_code', share_code: 'NOPE-NOPE' }]) }),
        'actions.0',
      ],
      [rule('Unknown event', { when: 'upload,reboot' }), 'when'],
      [rule('Bad target', { for_type: 'planet' }), 'for_type'],
      [rule('Other target', { for_type: 'group', for_id: gateway }), 'for_id'],
      [rule('Bad match', { match: 'most' }), 'match'],
      [rule(' '), 'name'],
    ];
    for (const [params, subtype, why] of refusals) {
      const answer = await call('route/add', params);
      expect(answer.body.error_type, `${params.name}: ${JSON.stringify(answer.body)}`).toBe('INVALID_FIELD');
      expect(answer.body.error_subtype, String(params.name)).toBe(subtype);
      if (why) expect(JSON.stringify(answer.body), String(params.name)).toMatch(why);
    }
    const missing = await call('route/add', { account_id: accountId, name: 'Nothing else' });
    expect(missing.body.error_type).toBe('MISSING_FIELDS');
    expect(await names()).toEqual([]);
  });

  it("takes Ambra's on_harvest/on_upload/on_share/on_manual_route flags for when, and refuses them beside when", async () => {
    const { when: _when, ...flagged } = rule('Flagged');
    const added = await call('route/add', { ...flagged, on_upload: 1, on_manual_route: 1, on_share: 0 });
    expect(added.body.status, JSON.stringify(added.body)).toBe('OK');
    expect(added.body.route.when).toEqual(['upload', 'manual']);
    const uuid = added.body.route.uuid as string;

    // route/set: a flag turns its own event on or off, the others stay.
    const set = await call('route/set', { uuid, on_harvest: 1, on_upload: 0 });
    expect(set.body.route.when).toEqual(['harvest', 'manual']);
    expect((await call('route/get', { uuid })).body.route.when).toEqual(['harvest', 'manual']);

    for (const [path, params, subtype] of [
      ['route/set', { uuid, when: 'share', on_upload: 1 }, 'when'],
      ['route/set', { uuid, on_harvest: 0, on_manual_route: 0 }, 'when'],
      // A wrong 0/1 value is refused as every flag's is (INVALID_FIELD flag).
      ['route/set', { uuid, on_share: 'yes' }, 'flag'],
      ['route/add', { ...rule('Both'), on_upload: 1 }, 'when'],
      ['route/add', { ...flagged, name: 'No event', on_upload: 0 }, 'when'],
    ] as const) {
      const answer = await call(path, params);
      expect(answer.body.error_type, JSON.stringify(params)).toBe('INVALID_FIELD');
      expect(answer.body.error_subtype, JSON.stringify(params)).toBe(subtype);
    }
    expect((await call('route/get', { uuid })).body.route.when).toEqual(['harvest', 'manual']);
    expect(await names()).toEqual(['Flagged']);
    await call('route/delete', { uuid });
  });

  it('lets a member without route_view or route_edit neither read nor change rules', async () => {
    const added = await call('route/add', rule('Admin only'));
    expect((await call('route/list', { account_id: accountId }, viewer)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect((await call('route/add', rule('Sneaky'), viewer)).body.error_type).toBe('NOT_PERMITTED');
    expect((await call('route/delete', { uuid: added.body.route.uuid }, viewer)).body.error_type).toBe(
      'NOT_PERMITTED',
    );
    expect(await names()).toEqual(['Admin only']);
  });
});
