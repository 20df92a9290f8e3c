import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Migrator, type MigrationProvider } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/dialect.js';
import { migrations } from '../../src/db/migrations/index.js';
import type { Dialect } from '../support/test-server.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

const BEFORE = '20261130T0100-study-counts-covering';
const REGISTRY = '20261202T0100-share-code-registry';

/**
 * A database that already holds the F6 state of issue 27 (a viewer's personal namespace holding
 * their hospital's code, in another case, and two groups holding one code): the share-code registry
 * migration gives every code one owner, the account's first, and clears the later holders.
 */
describe.each(DIALECTS)('share-code registry migration on %s', (dialect: Dialect) => {
  let db: Db | undefined;
  let dir = '';
  afterEach(async () => {
    await db?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('registers account codes first and clears a later holder of the same code in any case', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-share-codes-'));
    db = openDatabase({
      dataDir: dir,
      databaseUrl: dialect === 'postgres' ? await createPgDatabase() : undefined,
    });
    const only = (upTo: string): MigrationProvider => ({
      getMigrations: () =>
        Promise.resolve(Object.fromEntries(Object.entries(migrations).filter(([name]) => name <= upTo))),
    });
    const migrate = async (upTo: string) => {
      const { error } = await new Migrator({ db: db!.kysely, provider: only(upTo) }).migrateToLatest();
      if (error) throw error instanceof Error ? error : new Error(JSON.stringify(error));
    };
    await migrate(BEFORE);

    const k = db.kysely;
    await k
      .insertInto('accounts')
      .values([
        {
          uuid: 'acc-demo',
          name: 'Demo',
          namespace_id: 'ns-demo',
          vanity: 'demo',
          share_code: 'DEMO-HOSP',
          created: 1,
        },
        {
          uuid: 'acc-partner',
          name: 'Partner',
          namespace_id: 'ns-partner',
          vanity: null,
          share_code: null,
          created: 2,
        },
      ])
      .execute();
    await k
      .insertInto('users')
      .values({
        uuid: 'user-vera',
        email: 'vera@example.org',
        name: 'Vera Viewer',
        first_name: 'Vera',
        last_name: 'Viewer',
        password_hash: 'x',
        password_history: '[]',
        sysadmin: 0,
        support: 0,
        status: 'ACTIVE',
        time_zone: null,
        mobile_phone: null,
        language: null,
        ui_json: null,
        created: 1,
        last_login: null,
      })
      .execute();
    const ns = (
      id: string,
      account: string,
      kind: string,
      code: string | null,
      owner: string | null = null,
    ) => ({
      id,
      account_id: account,
      kind,
      name: id,
      owner_user_id: owner,
      share_code: code,
      share_description: code ? `desk ${id}` : null,
    });
    await k
      .insertInto('namespaces')
      .values([
        ns('ns-demo', 'acc-demo', 'ACCOUNT', null),
        ns('ns-partner', 'acc-partner', 'ACCOUNT', null),
        ns('ns-vera', 'acc-demo', 'USER', 'demo-hosp', 'user-vera'),
        ns('ns-referrals', 'acc-partner', 'CLOUD', 'REFERRALS'),
        ns('ns-vera-2', 'acc-partner', 'USER', 'Referrals ', 'user-vera'),
        ns('ns-own', 'acc-demo', 'CLOUD', 'OWN-CODE'),
      ])
      .execute();

    await migrate(REGISTRY);

    expect(await k.selectFrom('share_codes').selectAll().orderBy('code').execute()).toEqual([
      { code: 'DEMO-HOSP', account_id: 'acc-demo', namespace_id: null },
      { code: 'OWN-CODE', account_id: 'acc-demo', namespace_id: 'ns-own' },
      { code: 'REFERRALS', account_id: 'acc-partner', namespace_id: 'ns-referrals' },
    ]);
    const codes = await k.selectFrom('namespaces').select(['id', 'share_code']).orderBy('id').execute();
    expect(Object.fromEntries(codes.map((c) => [c.id, c.share_code]))).toMatchObject({
      'ns-vera': null,
      'ns-vera-2': null,
      'ns-referrals': 'REFERRALS',
      'ns-own': 'OWN-CODE',
    });
  });
});
