import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../support/access-world.js';
import { listWalk } from '../support/list-params.js';
import { buildWorld } from '../support/access-world.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Ambra's paging convention on every api/v3 list: any `page.rows` from 1 up to the list's maximum
 * is taken and echoed in the answer's `page`, with `page.number`; 0 or more than any list allows is
 * INVALID_FIELD `page.rows`. The lists are found among the registered routes, so a new list is
 * walked without being named here.
 */

describe.each(DIALECTS)('paging of every list on %s', (dialect) => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    world = await buildWorld(server);
  }, 240_000);
  afterAll(() => server?.stop());

  const { call, lists } = listWalk(() => ({ server, world }));

  it('takes any page.rows from 1 up, answers at most that many rows, and echoes page.rows and page.number', async () => {
    expect(lists()).toContain('account/user/list');
    const wrong: string[] = [];
    for (const path of lists()) {
      for (const rows of [1, 2]) {
        const { status, body } = await call(path, { 'page.rows': String(rows), 'page.number': '1' });
        const page = body.page as { rows?: number; number?: number } | undefined;
        const longest = Math.max(0, ...Object.values(body).map((v) => (Array.isArray(v) ? v.length : 0)));
        if (status !== 200 || body.status !== 'OK')
          wrong.push(`${path} rows=${rows}: ${JSON.stringify(body)}`);
        else if (page?.rows !== rows || page.number !== 1)
          wrong.push(`${path} rows=${rows}: page ${JSON.stringify(page)}`);
        else if (longest > rows) wrong.push(`${path} rows=${rows}: ${longest} rows answered`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses page.rows 0 and above every maximum as INVALID_FIELD page.rows', async () => {
    const wrong: string[] = [];
    for (const path of lists()) {
      for (const rows of ['0', String(MAX_PAGE_ROWS + 1)]) {
        const { body } = await call(path, { 'page.rows': rows });
        if (body.error_type !== 'INVALID_FIELD' || body.error_subtype !== 'page.rows')
          wrong.push(`${path} rows=${rows}: ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
