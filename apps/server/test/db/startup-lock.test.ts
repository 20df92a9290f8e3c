import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { withStartupLock } from '../../src/db/startup-lock.js';
import type { ChildServer } from '../support/child-server.js';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';
import { createPgDatabase } from '../support/test-server.js';

/**
 * Server processes started at once on a new PostgreSQL database: one migrates and seeds under the
 * start-up lock while the other waits, so both come up and the demo world exists once.
 */
describe('two server processes starting at once on one new PostgreSQL database', () => {
  const dirs: string[] = [];
  const servers: ChildServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hold the lock in turn: the second sees what the first did', async () => {
    const databaseUrl = await createPgDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-lock-'));
    dirs.push(dir);
    const [a, b] = [0, 1].map(() => openDatabase({ dataDir: dir, databaseUrl }));
    try {
      await a!.kysely.schema.createTable('seeded').addColumn('by', 'text').execute();
      const order: string[] = [];
      // Check-then-write with a pause in between, as "no account yet → seed the demo world" does.
      const seedOnce = (name: string) =>
        withStartupLock(name === 'a' ? a! : b!, async () => {
          order.push(`${name} in`);
          const db = (name === 'a' ? a! : b!).kysely.withTables<{ seeded: { by: string } }>();
          const done = await db.selectFrom('seeded').select('by').execute();
          await new Promise((r) => setTimeout(r, 300));
          if (!done.length) await db.insertInto('seeded').values({ by: name }).execute();
          order.push(`${name} out`);
        });
      await Promise.all([seedOnce('a'), seedOnce('b')]);
      const rows = await a!.kysely
        .withTables<{ seeded: { by: string } }>()
        .selectFrom('seeded')
        .select('by')
        .execute();
      expect(rows).toHaveLength(1);
      expect([order[0]!.split(' ')[1], order[1]!.split(' ')[1]]).toEqual(['in', 'out']);
    } finally {
      await a!.close();
      await b!.close();
    }
  });

  it('migrate once, seed once, and both serve', async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    const databaseUrl = await createPgDatabase();
    const started = await Promise.all(
      [0, 1].map((n) => {
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), `startup-lock-${n}-`));
        dirs.push(dir);
        return startChildServer(dir, { DATABASE_URL: databaseUrl, SEED_DEMO: '1' });
      }),
    );
    servers.push(...started);
    for (const server of started) expect((await fetch(`${server.url}/api/v3/health`)).status).toBe(200);

    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const ran = await client.query<{ name: string }>('select name from kysely_migration order by name');
      expect(ran.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
      const accounts = await client.query<{ n: string; names: string }>(
        'select count(*) as n, count(distinct name) as names from accounts',
      );
      expect(Number(accounts.rows[0]!.n)).toBeGreaterThan(0);
      expect(accounts.rows[0]!.n).toBe(accounts.rows[0]!.names);
      const users = await client.query<{ n: string; emails: string }>(
        'select count(*) as n, count(distinct email) as emails from users',
      );
      expect(users.rows[0]!.n).toBe(users.rows[0]!.emails);
    } finally {
      await client.end();
    }
  });
});
