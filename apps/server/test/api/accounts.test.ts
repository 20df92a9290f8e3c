import { MESSAGES } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { firstAccountOf } from '../support/demo-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('accounts, groups, namespaces, settings and bundle on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server?.stop());

  it('lists only accounts with the inbox view, and says so when there is none', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const { body } = await server.api.call('account/list', {}, sid);
    expect(body.accounts.map((a: { name: string }) => a.name)).toEqual(['Demo Hospital']);
    const account = body.accounts[0];
    const got = await server.api.get('account/get', { sid, uuid: account.uuid });
    expect(got.body.settings.enable_inbox_view).toBe('1');
    await server.ctx.repos.settings.set(`account:${account.uuid}`, 'enable_inbox_view', '0');
    const none = await server.api.call('account/list', {}, sid);
    expect(none.body).toMatchObject({
      error_type: 'NO_SUITABLE_ACCOUNT',
      error_subtype: MESSAGES.noSuitableAccount,
    });
    await server.ctx.repos.settings.set(`account:${account.uuid}`, 'enable_inbox_view', '1');
  });

  it('hides another account: account/get answers NOT_FOUND', async () => {
    const partner = await server.api.login('partner@demo.local');
    const partnerAccount = await firstAccountOf(server.api, partner);
    const sid = await server.api.login('clinician@demo.local');
    const { body } = await server.api.get('account/get', { sid, uuid: partnerAccount });
    expect(body.error_type).toBe('NOT_FOUND');
  });

  it('lists the member groups in Library, Gatekeeper, Cloud order; the admin sees all five', async () => {
    const admin = await server.api.login('admin@demo.local');
    expect((await server.api.groups(admin)).map((g) => g.name)).toEqual([
      'PACS Archive',
      'Teaching Files',
      'PACS Intake',
      'Cardiology',
      'Emergency',
    ]);
    const clinician = await server.api.login('clinician@demo.local');
    const groups = await server.api.groups(clinician);
    expect(groups.map((g) => g.name)).toEqual(['Cardiology', 'Emergency']);
    const got = await server.api.get('group/get', { sid: clinician, uuid: groups[0]!.uuid });
    expect(got.body).toMatchObject({ name: 'Cardiology', type: 'CLOUD' });
    const intake = (await server.api.groups(admin)).find((g) => g.name === 'PACS Intake')!;
    expect((await server.api.get('group/get', { sid: clinician, uuid: intake.uuid })).body.error_type).toBe(
      'NOT_FOUND',
    );
    const namespaces = await server.api.get('user/namespace/list', { sid: clinician });
    expect(namespaces.body.namespaces.map((n: { name: string }) => n.name).sort()).toEqual([
      'Cardiology',
      'Demo Hospital',
      'Emergency',
    ]);
  });

  it("stores the user's settings and refuses bad keys", async () => {
    const sid = await server.api.login('viewer@demo.local');
    expect(
      (await server.api.call('setting/set', { key: 'user_default_date_format', value: 'YYYY-MM-DD' }, sid))
        .body.status,
    ).toBe('OK');
    expect((await server.api.get('setting/get', { sid, key: 'user_default_date_format' })).body.value).toBe(
      'YYYY-MM-DD',
    );
    expect((await server.api.get('setting/get/all', { sid })).body.settings).toEqual({
      user_default_date_format: 'YYYY-MM-DD',
    });
    expect((await server.api.call('setting/set', { key: 'bad key!', value: 'x' }, sid)).body.error_type).toBe(
      'INVALID_FIELD',
    );
    expect((await server.api.call('setting/set', { key: 'k' }, sid)).body.error_type).toBe('INVALID_FIELD');
    const other = await server.api.login('clinician@demo.local');
    expect((await server.api.get('setting/get/all', { sid: other })).body.settings).toEqual({});
  });

  it('runs a bundle of sub-requests in order, each with its own checks', async () => {
    const sid = await server.api.login('clinician@demo.local');
    const response = await fetch(`${server.url}/api/v3/bundle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        { URL: 'study/count', sid },
        { URL: '/api/v3/study/list', sid, 'page.rows': 2 },
        { URL: 'study/get', sid, uuid: 'nope' },
        { URL: 'session/user', sid: 'forged' },
        { sid },
      ]),
    });
    const answers = (await response.json()) as {
      status: string;
      error_type?: string;
      count?: number;
      studies?: unknown[];
    }[];
    expect(answers).toHaveLength(5);
    expect(answers[0]!.count).toBeGreaterThan(0);
    expect(answers[1]!.studies).toHaveLength(2);
    expect(answers[2]!.error_type).toBe('NOT_FOUND');
    expect(answers[3]!.error_type).toBe('EXPIRED');
    expect(answers[4]!.error_type).toBe('MISSING_FIELDS');
    const notArray = await fetch(`${server.url}/api/v3/bundle`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(notArray.status).toBe(412);
  });

  it('answers 404 for unknown api routes', async () => {
    expect((await server.api.get('no/such/call')).status).toBe(404);
  });
});
