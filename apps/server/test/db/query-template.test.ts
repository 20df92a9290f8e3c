import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { InListTemplate } from '../../src/db/in-list-template.js';
import { QueryTemplate } from '../../src/db/query-template.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

interface Scratch {
  items: { id: string; label: string; count: number; note: string | null };
}

describe.each(DIALECTS)('QueryTemplate (%s)', (dialect) => {
  let db: Db;
  let kysely: Kysely<Scratch>;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-template-'));
    db = openDatabase({
      dataDir,
      databaseUrl: dialect === 'postgres' ? await createPgDatabase() : undefined,
    });
    kysely = db.kysely as unknown as Kysely<Scratch>;
    await kysely.schema
      .createTable('items')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('label', 'varchar(40)', (c) => c.notNull())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('note', 'varchar(40)')
      .execute();
  });

  afterAll(async () => {
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs the compiled statement with each call’s values, in the right order', async () => {
    const insert = new QueryTemplate<
      { id: string; label: string; count: number; note: string | null },
      never
    >((slot) =>
      kysely
        .insertInto('items')
        // Not in column order, so a mix-up of parameter positions would show.
        .values({ note: slot('note'), count: slot('count'), id: slot('id'), label: slot('label') })
        .onConflict((oc) => oc.column('id').doNothing()),
    );
    const byLabel = new QueryTemplate<{ label: string; min: number }, { id: string; count: number }>((slot) =>
      kysely
        .selectFrom('items')
        .select(['id', 'count'])
        .where('label', '=', slot('label'))
        .where('count', '>=', slot('min'))
        .orderBy('id'),
    );
    const add = new QueryTemplate<{ id: string; by: number }, never>((slot) =>
      kysely
        .updateTable('items')
        .set({ count: sql`count + ${slot('by')}` })
        .where('id', '=', slot('id')),
    );

    expect(
      Number((await insert.execute(kysely, { id: 'a', label: 'x', count: 1, note: null })).numAffectedRows),
    ).toBe(1);
    expect(
      Number((await insert.execute(kysely, { id: 'b', label: 'x', count: 5, note: 'n' })).numAffectedRows),
    ).toBe(1);
    expect(
      Number((await insert.execute(kysely, { id: 'c', label: 'y', count: 9, note: null })).numAffectedRows),
    ).toBe(1);
    // A conflict inserts nothing, as with the builder.
    expect(
      Number((await insert.execute(kysely, { id: 'a', label: 'z', count: 0, note: null })).numAffectedRows),
    ).toBe(0);

    expect((await byLabel.execute(kysely, { label: 'x', min: 0 })).rows).toEqual([
      { id: 'a', count: 1 },
      { id: 'b', count: 5 },
    ]);
    expect((await byLabel.execute(kysely, { label: 'x', min: 2 })).rows).toEqual([{ id: 'b', count: 5 }]);

    // Inside a transaction, on its connection.
    await kysely.transaction().execute(async (trx) => {
      await add.execute(trx, { id: 'a', by: 10 });
      await add.execute(trx, { id: 'c', by: -4 });
    });
    const rows = await kysely.selectFrom('items').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'a', label: 'x', count: 11, note: null },
      { id: 'b', label: 'x', count: 5, note: 'n' },
      { id: 'c', label: 'y', count: 5, note: null },
    ]);
  });

  it('refuses a slot that does not become a parameter', async () => {
    const inlined = new QueryTemplate<{ label: string }, { id: string }>((slot) =>
      kysely
        .selectFrom('items')
        .select('id')
        .where('label', '=', sql.lit(slot('label'))),
    );
    await expect(inlined.execute(kysely, { label: 'x' })).rejects.toThrow(/slot label is not a parameter/);
  });

  it('runs a list query with each call’s values, whatever the list’s length', async () => {
    await kysely
      .insertInto('items')
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          id: `l${String(i).padStart(3, '0')}`,
          label: 'l',
          count: i,
          note: null,
        })),
      )
      .execute();
    const byIds = new InListTemplate((ids) =>
      kysely.selectFrom('items').select(['id', 'count']).where('id', 'in', ids).orderBy('count', 'desc'),
    );
    const ids = (...n: number[]) => n.map((i) => `l${String(i).padStart(3, '0')}`);
    expect(await byIds.execute(kysely, ids(3, 1, 2))).toEqual([
      { id: 'l003', count: 3 },
      { id: 'l002', count: 2 },
      { id: 'l001', count: 1 },
    ]);
    // The same length again runs the statement compiled for it with the new values.
    expect(await byIds.execute(kysely, ids(7, 5, 119))).toEqual([
      { id: 'l119', count: 119 },
      { id: 'l007', count: 7 },
      { id: 'l005', count: 5 },
    ]);
    expect(await byIds.execute(kysely, ids(4))).toEqual([{ id: 'l004', count: 4 }]);
    expect(await byIds.execute(kysely, ['none'])).toEqual([]);
    // A list longer than those compiled once is built for the call.
    const all = ids(...Array.from({ length: 120 }, (_, i) => i));
    expect((await byIds.execute(kysely, all)).map((r) => r.count)).toEqual(
      Array.from({ length: 120 }, (_, i) => 119 - i),
    );
    // Inside a transaction, on its connection.
    await kysely.transaction().execute(async (trx) => {
      expect(await byIds.execute(trx, ids(8, 9, 10))).toHaveLength(3);
    });
  });
});
