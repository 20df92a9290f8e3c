import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/app.js';
import { SDK_CALLS, SDK_CALLS_WE_SERVE, SDK_NAME_CLASHES, SDK_NOT_YET } from '../support/ambra-sdk-calls.js';
import type { TestServer } from '../support/test-server.js';
import { DEMO_PASSWORD, DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Ambra's SDK is the reference client for api/v3: every call we serve under one of its names takes
 * the SDK's parameter names. The table (test/support/ambra-sdk-calls.ts) was extracted from the
 * SDK's generated entrypoints; this walk sends each call the way the SDK shapes it and fails when
 * api/v3 refuses it for a parameter it names differently (MISSING_FIELDS, or INVALID_FIELD about a
 * parameter the SDK did not send), when it wants a session the SDK does not send, or when the
 * route does not exist. Objects are made-up uuids, so an answer of NOT_FOUND proves the call was
 * understood, and nothing real is changed.
 */

const MADE_UP = '00000000-0000-4000-8000-00000000a5d4';

/** A plausible value per SDK parameter name (ids are made up; `type` depends on the call). */
function valueOf(call: string, name: string): string {
  const byCall: Record<string, Record<string, string>> = {
    'study/share/who': { type: 'group' },
    'customfield/add': { type: 'text' },
    'webhook/event': { type: 'STUDY_UPLOAD_START' },
    'study/timing/event': { event: 'UPLOAD_START' },
    'webhook/add': { event: 'study_uploaded' },
  };
  const values: Record<string, string> = {
    login: 'admin@demo.local',
    password: DEMO_PASSWORD,
    key: 'sdk_check',
    value: '1',
    first: 'Ada',
    email: 'nobody@example.org',
    token: 'x'.repeat(43),
    event_share: '1',
    name: 'SDK check',
    object: 'Study',
    required: '0',
    display_order: '1',
    address: '192.0.2.10',
    aetitle: 'SDKCHECK',
    port: '104',
    patientid: 'SDK1',
    patient_name: 'SDK^CHECK',
    accession_number: 'SDK1',
    patient_birth_date: '19700101',
    patient_sex: 'O',
    referring_physician: 'DOC^TOR',
    sending_facility: 'SDK',
    action: 'STUDY_UPLOAD',
    max_hits: '1',
    minutes_alive: '60',
    actions: '[]',
    conditions: '[]',
    on_harvest: '1',
    on_share: '0',
    method: 'POST',
    url: 'https://example.org/hook',
    star: '1',
    study_uid: '1.2.826.0.1.3680043.2.1125.1',
    message: 'from the SDK',
    reverse: '1',
    from_time: '0',
    enable_dicom_wrapping: '1',
    share_code: 'NO-SUCH-CODE',
    settings: '{"default_language":"en"}',
    'filter.patientid.equals': 'SDK1',
    tag: 'sdk',
  };
  return byCall[call]?.[name] ?? values[name] ?? MADE_UP;
}

describe.each(DIALECTS)("Ambra's SDK parameter names on %s", (dialect) => {
  let server: TestServer;
  let admin: string;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    admin = await server.api.login('admin@demo.local');
  });
  afterAll(() => server?.stop());

  const served = () => new Set(registeredRoutes(server.http).map((r) => r.url.replace(/^\/api\/v3\//, '')));

  it("serves the SDK's names for what api/v3 already did: a user's, an account's and failed sign-ins' audit, a study's permissions, a new role's permissions", () => {
    const routes = served();
    expect(SDK_CALLS_WE_SERVE.filter((call) => !routes.has(call))).toEqual([]);
    for (const call of Object.keys(SDK_NAME_CLASHES)) expect(routes.has(call), call).toBe(true);
  });

  it('takes every SDK call we serve with the parameter names the SDK sends', async () => {
    const routes = served();
    const walked = Object.keys(SDK_CALLS).filter((call) => routes.has(call));
    expect(walked.length).toBeGreaterThan(80);
    const refused: string[] = [];
    for (const call of walked) {
      const sdk = SDK_CALLS[call]!;
      for (const form of sdk.forms) {
        // A list's filters (`filter.<field>.<condition>`) are added by the SDK's pager, not listed.
        expect(
          form.every((p) => sdk.params.includes(p) || p.startsWith('filter.')),
          call,
        ).toBe(true);
        // session/logout would end the session the rest of the walk uses.
        const sid = call === 'session/logout' ? await server.api.login('admin@demo.local') : admin;
        const params = Object.fromEntries(form.map((p) => [p, valueOf(call, p)]));
        const { status, body } = await server.api.call(call, params, sdk.sid === false ? undefined : sid);
        const why = `${call} (${form.join(', ') || 'no parameters'}): ${status} ${JSON.stringify(body).slice(0, 300)}`;
        if (status === 404 && !body.error_type) refused.push(`${why} — not served`);
        // A product rule may need a parameter the SDK makes optional (study/reject's `reason` or
        // `message`): that is not a refusal of the SDK's names. Needing only names the SDK never
        // sends is.
        else if (
          body.error_type === 'MISSING_FIELDS' &&
          !(body.error_data as string[]).some((name) => sdk.params.includes(name)) &&
          !(call in SDK_NOT_YET)
        )
          refused.push(why);
        else if (body.error_type === 'EXPIRED')
          refused.push(`${why} — wants a session the SDK does not send`);
        else if (
          body.error_type === 'INVALID_FIELD' &&
          !form.includes(body.error_subtype) &&
          body.error_subtype !== 'flag'
        )
          refused.push(why);
      }
    }
    expect(refused).toEqual([]);
  }, 120_000);

  it("answers the SDK's forms as the spec's: study/exists and study/get by triplet or account, engine/fqdn without a session, an account's and a user's audit, failed sign-ins, a study's permissions", async () => {
    const study = (await server.api.call('study/list', { 'page.rows': 1 }, admin)).body.studies[0];
    const account = (await server.api.call('account/list', {}, admin)).body.accounts[0].uuid as string;
    const triplet = {
      study_uid: study.study_uid,
      storage_namespace: study.storage_namespace,
      phi_namespace: study.phi_namespace,
    };
    expect(
      (await server.api.call('study/exists', { study_uid: study.study_uid, account_id: account }, admin)).body
        .exists,
    ).toBe(1);
    expect((await server.api.call('study/exists', triplet, admin)).body.exists).toBe(1);
    expect((await server.api.call('study/exists', { uuid: study.uuid }, admin)).body.exists).toBe(1);
    expect((await server.api.call('study/exists', { uuid: MADE_UP }, admin)).body.exists).toBe(0);
    expect((await server.api.call('study/get', triplet, admin)).body.uuid).toBe(study.uuid);

    const fqdn = await server.api.call('namespace/engine/fqdn', { namespace_id: study.phi_namespace });
    expect(fqdn.body).toMatchObject({ status: 'OK', engine_fqdn: study.engine_fqdn });
    const signedIn = await server.api.call('namespace/engine/fqdn', { study_id: study.uuid }, admin);
    expect(signedIn.body).toMatchObject({
      engine_fqdn: study.engine_fqdn,
      namespace_id: study.phi_namespace,
    });
    // A session sent is checked: a dead one is refused, as on every call.
    expect(
      (await server.api.call('namespace/engine/fqdn', { namespace_id: MADE_UP }, 'dead-sid')).status,
    ).toBe(401);

    const permissions = await server.api.call('study/permissions', { uuid: study.uuid }, admin);
    const fromGet = await server.api.call('study/get', { uuid: study.uuid }, admin);
    expect(permissions.body.permissions).toEqual(fromGet.body.permissions);

    await server.api.call('session/login', { login: 'clinician@demo.local', password: 'wrong-password-1' });
    const failed = await server.api.call('audit/failedlogins', { account_id: account, reverse: 1 }, admin);
    expect(failed.body.events[0]).toMatchObject({
      action: 'LOGIN',
      outcome: 'FAILURE',
      user_email: 'clinician@demo.local',
    });
    const adminId = (await server.api.call('user/get', {}, admin)).body.uuid as string;
    const mine = await server.api.call(
      'audit/user',
      { account_id: account, user_id: adminId, 'page.rows': 50 },
      admin,
    );
    expect(mine.body.events.length).toBeGreaterThan(0);
    expect(new Set(mine.body.events.map((e: { user_id: string }) => e.user_id))).toEqual(new Set([adminId]));
    const whole = await server.api.call(
      'audit/account',
      { account_id: account, 'filter.action.in': '["LOGIN"]' },
      admin,
    );
    expect(whole.body.events.every((e: { action: string }) => e.action === 'LOGIN')).toBe(true);
    const defaults = await server.api.call('role/default/permissions', {}, admin);
    expect(defaults.body.permissions).toMatchObject({ study_view: 0 });
  });
});
