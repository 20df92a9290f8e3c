import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('the account audit log (audit/log) on %s', (dialect) => {
  let server: TestServer;
  let admin: string;
  let accountId: string;
  let partnerAccountId: string;
  let viewerId: string;

  beforeAll(async () => {
    server = await startTestServer(dialect, { SEED_STUDIES: '2' });
    const db = server.ctx.db.kysely;
    const accounts = await db.selectFrom('accounts').select(['uuid', 'name']).execute();
    accountId = accounts.find((a) => a.name === 'Demo Hospital')!.uuid;
    partnerAccountId = accounts.find((a) => a.name === 'Partner Clinic')!.uuid;
    viewerId = (
      await db
        .selectFrom('users')
        .select('uuid')
        .where('email', '=', 'viewer@demo.local')
        .executeTakeFirstOrThrow()
    ).uuid;
    // A failed sign-in of a member, a good one, and a partner's sign-in the demo log must not show.
    await server.api.call('session/login', { login: 'viewer@demo.local', password: 'wrong-password-1' });
    await server.api.login('viewer@demo.local');
    await server.api.login('partner@demo.local');
    admin = await server.api.login('admin@demo.local');
  }, 120_000);
  afterAll(() => server?.stop());

  const log = (params: Record<string, string | number>, sid = admin) =>
    server.api.call('audit/log', { account_id: accountId, ...params }, sid);

  it("lists the account's events newest first, failed sign-ins included, filtered by user, action and time", async () => {
    const viewerLogins = await log({ 'filter.user_id': viewerId, 'filter.action': 'LOGIN' });
    expect(viewerLogins.body.status).toBe('OK');
    expect(viewerLogins.body.events.map((e: { outcome: string }) => e.outcome)).toEqual([
      'SUCCESS',
      'FAILURE',
    ]);
    expect(viewerLogins.body.events[1]).toMatchObject({
      action: 'LOGIN',
      type: 'session',
      user_email: 'viewer@demo.local',
      detail: { login: 'viewer@demo.local' },
    });
    const all = await log({ 'page.rows': 1000 });
    const emails = new Set(all.body.events.map((e: { user_email: string | null }) => e.user_email));
    expect(emails.has('partner@demo.local')).toBe(false);
    const times = all.body.events.map((e: { when: string }) => Date.parse(e.when));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const future = await log({ 'filter.from': Date.now() + 60_000 });
    expect(future.body.events).toEqual([]);
    const page = await log({ 'page.rows': 1 });
    expect(page.body.events).toHaveLength(1);
    expect(page.body.page).toEqual({ number: 1, rows: 1, more: 1 });
  });

  it('names the study an event is about by its patient and description, and filters by study', async () => {
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'patient_name', 'study_description'])
      .where('account_id', '=', accountId)
      .orderBy('uuid')
      .executeTakeFirstOrThrow();
    expect((await server.api.call('study/get', { uuid: study.uuid }, admin)).body.status).toBe('OK');
    const views = await log({ 'filter.study_id': study.uuid });
    expect(views.body.events.length).toBeGreaterThan(0);
    expect(views.body.events[0]).toMatchObject({
      action: 'STUDY_VIEW',
      object_id: study.uuid,
      user_email: 'admin@demo.local',
      study: { patient_name: study.patient_name, description: study.study_description },
    });
    const logins = await log({ 'filter.action': 'LOGIN' });
    expect(logins.body.events.every((e: { study: unknown }) => e.study === null)).toBe(true);
  });

  it('exports the filtered log as CSV, formulas neutralised', async () => {
    // As the web app asks for it: a GET whose sid is in the Authorization header, not in its URL.
    const query = new URLSearchParams({ account_id: accountId, 'filter.action': 'LOGIN', format: 'csv' });
    const response = await fetch(`${server.url}/api/v3/audit/log?${query.toString()}`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(response.headers.get('content-disposition')).toMatch(/attachment; filename="audit-log.csv"/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      'when,action,outcome,type,object_id,study_uuid,patient_name,user_id,user_name,user_email,ip,detail',
    );
    expect(lines.slice(1).every((l) => l.includes('"LOGIN"'))).toBe(true);
    expect(lines.some((l) => l.includes('"FAILURE"') && l.includes('viewer@demo.local'))).toBe(true);
    const { csvCell } = await import('../../src/modules/admin/audit-log.service.js');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
  });

  it("names the groups a study search's filters name, by namespace id", async () => {
    const group = await server.ctx.db.kysely
      .selectFrom('groups')
      .select(['namespace_id', 'name'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .executeTakeFirstOrThrow();
    const found = await server.api.call(
      'study/list',
      { 'filter.phi_namespace.equals': group.namespace_id, 'filter.patient_name.like': '%A%' },
      admin,
    );
    expect(found.body.status).toBe('OK');
    const searches = await log({ 'filter.action': 'STUDY_SEARCH' });
    const search = searches.body.events.find(
      (e: { detail: { filters?: Record<string, string> } | null }) =>
        e.detail?.filters?.['filter.phi_namespace.equals'] === group.namespace_id,
    );
    expect(search).toMatchObject({
      user_email: 'admin@demo.local',
      detail: { filters: { 'filter.patient_name.like': '%A%' } },
      group_names: { [group.namespace_id]: group.name },
    });
    const logins = await log({ 'filter.action': 'LOGIN' });
    expect(logins.body.events.every((e: object) => !('group_names' in e))).toBe(true);
  });

  it("names the account's own group a detail's namespace id points to, never another account's", async () => {
    const db = server.ctx.db.kysely;
    const own = await db
      .selectFrom('groups')
      .select(['namespace_id', 'name'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .executeTakeFirstOrThrow();
    const foreign = await db
      .selectFrom('groups')
      .select(['namespace_id'])
      .where('account_id', '=', partnerAccountId)
      .executeTakeFirstOrThrow();
    for (const target of [own.namespace_id, foreign.namespace_id])
      await server.ctx.services.audit.record({
        userId: null,
        accountId,
        action: 'STUDY_SEND',
        objectType: 'send',
        detail: { target_namespace_id: target, copy_uuid: 'c1' },
      });
    const sends = await log({ 'filter.action': 'STUDY_SEND' });
    const named = sends.body.events.find(
      (e: { detail: { target_namespace_id?: string } | null }) =>
        e.detail?.target_namespace_id === own.namespace_id,
    );
    expect(named.group_names).toEqual({ [own.namespace_id]: own.name });
    const other = sends.body.events.find(
      (e: { detail: { target_namespace_id?: string } | null }) =>
        e.detail?.target_namespace_id === foreign.namespace_id,
    );
    expect(other).toBeDefined();
    expect(other.group_names).toBeUndefined();
  });

  it("names the account's own copy a send's detail points to, and a group a share names by its uuid; another account's stay unnamed", async () => {
    const db = server.ctx.db.kysely;
    const own = await db
      .selectFrom('studies')
      .select(['uuid', 'patient_name', 'study_description'])
      .where('account_id', '=', accountId)
      .orderBy('uuid')
      .executeTakeFirstOrThrow();
    // A copy made in another account (a send by share code): this account's log never names it.
    const foreign = { uuid: randomUUID() };
    const group = await db
      .selectFrom('groups')
      .select(['uuid', 'name'])
      .where('account_id', '=', accountId)
      .orderBy('name')
      .executeTakeFirstOrThrow();
    const partnerGroup = await db
      .selectFrom('groups')
      .select(['uuid'])
      .where('account_id', '=', partnerAccountId)
      .executeTakeFirstOrThrow();
    for (const copy of [own.uuid, foreign.uuid])
      await server.ctx.services.audit.record({
        userId: null,
        accountId,
        action: 'STUDY_SEND',
        objectType: 'study',
        detail: { send: 's1', method: 'share_code', copy_uuid: copy },
      });
    for (const target of [group.uuid, partnerGroup.uuid])
      await server.ctx.services.audit.record({
        userId: null,
        accountId,
        action: 'CREATE',
        objectType: 'share',
        detail: { target_type: 'group', target_id: target },
      });
    const sends = (await log({ 'filter.action': 'STUDY_SEND' })).body.events as {
      detail: Record<string, unknown>;
      study_names?: Record<string, unknown>;
    }[];
    const ownSend = sends.find((e) => e.detail['copy_uuid'] === own.uuid)!;
    expect(ownSend.study_names).toEqual({
      [own.uuid]: { patient_name: own.patient_name, description: own.study_description ?? '' },
    });
    const foreignSend = sends.find((e) => e.detail['copy_uuid'] === foreign.uuid)!;
    expect(foreignSend).toBeDefined();
    expect(foreignSend.study_names).toBeUndefined();

    const shares = (await log({ 'filter.action': 'CREATE' })).body.events as {
      detail: Record<string, unknown> | null;
      group_names?: Record<string, string>;
    }[];
    const ownShare = shares.find((e) => e.detail?.['target_id'] === group.uuid)!;
    expect(ownShare.group_names).toEqual({ [group.uuid]: group.name });
    const foreignShare = shares.find((e) => e.detail?.['target_id'] === partnerGroup.uuid)!;
    expect(foreignShare).toBeDefined();
    expect(foreignShare.group_names).toBeUndefined();
  });

  it('names the study of each event in the CSV by its uuid and patient name', async () => {
    const study = await server.ctx.db.kysely
      .selectFrom('studies')
      .select(['uuid', 'patient_name'])
      .where('account_id', '=', accountId)
      .orderBy('uuid', 'desc')
      .executeTakeFirstOrThrow();
    expect(study.patient_name).toContain('^');
    expect((await server.api.call('study/get', { uuid: study.uuid }, admin)).body.status).toBe('OK');
    const csv = async (filter: Record<string, string>) => {
      const response = await fetch(`${server.url}/api/v3/audit/log`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ sid: admin, account_id: accountId, format: 'csv', ...filter }),
      });
      const [head, ...rows] = (await response.text()).trim().split('\r\n');
      const columns = head!.split(',');
      // Cells are quoted and hold no line breaks here: split on the commas between quotes.
      return rows.map((line) => {
        const cells = line.split(/,(?=(?:[^"]*"[^"]*")*[^"]*$)/).map((c) => c.replace(/^"|"$/g, ''));
        return Object.fromEntries(columns.map((c, i) => [c, cells[i] ?? '']));
      });
    };
    const views = await csv({ 'filter.study_id': study.uuid, 'filter.action': 'STUDY_VIEW' });
    expect(views.length).toBeGreaterThan(0);
    expect(views[0]).toMatchObject({
      action: 'STUDY_VIEW',
      study_uuid: study.uuid,
      patient_name: study.patient_name.split('^').filter(Boolean).join(', '),
    });
    const logins = await csv({ 'filter.action': 'LOGIN' });
    expect(logins.every((row) => row['study_uuid'] === '' && row['patient_name'] === '')).toBe(true);
  });

  it('is for audit_view holders of the account only, and refuses bad filters', async () => {
    const viewer = await server.api.login('viewer@demo.local');
    expect((await log({}, viewer)).body.error_type).toBe('NOT_PERMITTED');
    const partner = await server.api.login('partner@demo.local');
    expect((await log({}, partner)).body.error_type).toBe('NOT_FOUND');
    expect(
      (await server.api.call('audit/log', { account_id: partnerAccountId }, admin)).body.error_type,
    ).toBe('NOT_FOUND');
    const bad = await log({ 'filter.from': 'yesterday' });
    expect(bad.body).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: 'filter.from' });
    expect((await log({ format: 'xml' })).body).toMatchObject({
      error_type: 'INVALID_FIELD',
      error_subtype: 'format',
    });
  });
});
