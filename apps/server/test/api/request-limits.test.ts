/**
 * Requests past sane sizes get a clear 4xx and change nothing (issue 14, item 9): JSON nested
 * 100,000 deep, a 50,000-character search filter, a megabyte of link message; and the outbox page
 * is there only when asked for.
 */
import { MAX_FILTER_LENGTH, MAX_SHARE_MESSAGE } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

describe.each(DIALECTS)('request limits on %s', (dialect) => {
  let server: TestServer;
  let sid: string;
  beforeAll(async () => {
    server = await startTestServer(dialect);
    sid = await server.api.login('clinician@demo.local');
  });
  afterAll(() => server?.stop());

  const postJson = async (path: string, body: string) => {
    const response = await fetch(`${server.url}/api/v3/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it('answers 400 to JSON nested deeper than 64 levels, and still takes ordinary JSON', async () => {
    const deep = 100_000;
    for (const [path, body] of [
      ['session/login', `${'['.repeat(deep)}${']'.repeat(deep)}`],
      ['session/login', `{"login":${'{"a":'.repeat(deep)}1${'}'.repeat(deep + 1)}`],
      ['bundle', `${'['.repeat(deep)}${']'.repeat(deep)}`],
      ['study/list', `{"sid":"${sid}","x":${'['.repeat(5_000)}${']'.repeat(5_000)}}`],
    ] as const) {
      const answer = await postJson(path, body);
      expect(answer, path).toMatchObject({ status: 400, body: { error_type: 'INVALID_FIELD' } });
    }
    // Brackets inside strings are text, not nesting.
    const inString = await postJson(
      'study/list',
      JSON.stringify({ sid, 'filter.patient_name.like': '['.repeat(80) }),
    );
    expect(inString.status).toBe(200);
    const bundle = await postJson('bundle', JSON.stringify([{ URL: '/study/count', sid }]));
    expect(bundle.status).toBe(200);
  });

  it('refuses a search filter past MAX_FILTER_LENGTH characters with INVALID_FIELD', async () => {
    for (const key of [
      'filter.customfield-priority.like',
      'filter.patient_name.like',
      'filter.SMART_SEARCH',
    ]) {
      const answer = await server.api.call('study/list', { [key]: 'A'.repeat(50_000) }, sid);
      expect(answer.status, key).toBe(412);
      expect(answer.body, key).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: key });
    }
    const atLimit = await server.api.call(
      'study/list',
      { 'filter.patient_name.like': 'A'.repeat(MAX_FILTER_LENGTH) },
      sid,
    );
    expect(atLimit.status).toBe(200);
  });

  it('refuses link/add with an oversized message, password or address, creating and mailing nothing', async () => {
    const namespaceId = await server.api.namespaceOf(sid, 'Emergency');
    const counts = async () => ({
      links: (await server.ctx.db.kysely.selectFrom('links').select('uuid').execute()).length,
      mails: (await server.ctx.db.kysely.selectFrom('outbox').select('id').execute()).length,
    });
    const base = {
      namespace_id: namespaceId,
      action: 'STUDY_UPLOAD',
      email: 'sender@hospital.example',
      max_hits: 5,
      minutes_alive: 60,
    };
    const before = await counts();
    for (const [field, extra] of [
      ['message', { message: 'x'.repeat(1024 * 1024) }],
      ['message', { message: 'x'.repeat(MAX_SHARE_MESSAGE + 1) }],
      ['password', { password: 'p'.repeat(10_000) }],
      ['email', { email: `${'a'.repeat(300)}@hospital.example` }],
    ] as const) {
      const answer = await server.api.call('link/add', { ...base, ...extra }, sid);
      expect(answer.body, field).toMatchObject({ error_type: 'INVALID_FIELD', error_subtype: field });
    }
    expect(await counts()).toEqual(before);
    const fine = await server.api.call('link/add', { ...base, message: 'x'.repeat(MAX_SHARE_MESSAGE) }, sid);
    expect(fine.body.status).toBe('OK');
  });

  it('serves no /dev/outbox unless DEV_OUTBOX=1', async () => {
    // The path falls through to the web app (or 404 without one), never to the mail.
    const page = await (await fetch(`${server.url}/dev/outbox`)).text();
    expect(page).not.toContain('Outbox');
    expect(page).not.toContain('/link/');
  });
});

describe('the outbox page with DEV_OUTBOX=1', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { SEED_DEMO: '0', DEV_OUTBOX: '1' });
  });
  afterAll(() => server?.stop());

  it('is served to a loopback client', async () => {
    const response = await fetch(`${server.url}/dev/outbox`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<h1>Outbox</h1>');
  });
});
