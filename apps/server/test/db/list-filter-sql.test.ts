import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { filterRows, type FilterCondition, type ListFilter } from '@imaging-inbox/contract';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/dialect.js';
import type { Db } from '../../src/db/dialect.js';
import { listFilterSql, type FilterField } from '../../src/repositories/list-filter.sql.js';
import { createPgDatabase, DIALECTS } from '../support/test-server.js';

/**
 * The list filters in SQL give the rows `filterRows` gives on the same rows, on both databases:
 * every condition, on text and on whole numbers, absent values, numbers written as text, LIKE's
 * `%` and its escapes, and order comparisons of text by character codes. What SQL cannot promise
 * (a `_` or non-ASCII LIKE pattern, text ordered against a number) is left to memory (undefined).
 */

interface Scratch {
  rows: { id: string; name: string | null; size: number | null };
}

const ROWS: Scratch['rows'][] = [
  { id: 'a', name: 'Ann Lee', size: 10 },
  { id: 'b', name: 'ann lee', size: 9 },
  { id: 'c', name: 'Bob', size: null },
  { id: 'd', name: null, size: 100 },
  { id: 'e', name: '100', size: 0 },
  { id: 'f', name: 'back\\slash 50%', size: -5 },
  { id: 'g', name: 'Zoë', size: 1_700_000_000_000 },
  { id: 'h', name: '', size: 2 },
];

const FIELDS: Record<string, FilterField> = {
  name: { kind: 'text', value: sql`name` },
  size: { kind: 'integer', value: sql`size` },
};

const filter = (field: string, condition: FilterCondition, ...values: string[]): ListFilter => ({
  key: `filter.${field}.${condition}`,
  field,
  condition,
  values,
});

/** Each case: filters SQL answers exactly. */
const EXACT: ListFilter[][] = [
  [filter('name', 'equals', 'Ann Lee')],
  [filter('name', 'equals', 'ann')],
  [filter('name', 'in', 'Bob', 'Zoë', '')],
  [filter('name', 'in', 'nobody')],
  [filter('name', 'in')],
  [filter('name', 'like', '%lee')],
  [filter('name', 'like', 'ANN%')],
  [filter('name', 'like', '%')],
  [filter('name', 'like', '%\\slash 50%')],
  [filter('name', 'like', '%50%%')],
  [filter('name', 'ge', 'b')],
  [filter('name', 'lt', 'Bob')],
  [filter('name', 'le', 'Zz')],
  [filter('name', 'gt', 'a')],
  [filter('size', 'equals', '10')],
  [filter('size', 'in', '0', '100', '')],
  [filter('size', 'like', '1%')],
  [filter('size', 'ge', '9')],
  [filter('size', 'gt', '-5')],
  [filter('size', 'le', '2')],
  [filter('size', 'lt', '9.5')],
  [filter('size', 'lt', '1e3')],
  [filter('size', 'ge', 'abc')],
  [filter('size', 'le', 'abc')],
  [filter('size', 'ge', '9'), filter('name', 'like', '%n%')],
  [],
];

describe.each(DIALECTS)('list filters in SQL (%s)', (dialect) => {
  let db: Db;
  let kysely: Kysely<Scratch>;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-list-filter-'));
    db = openDatabase({
      dataDir,
      databaseUrl: dialect === 'postgres' ? await createPgDatabase() : undefined,
    });
    kysely = db.kysely as unknown as Kysely<Scratch>;
    await kysely.schema
      .createTable('rows')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(200)')
      .addColumn('size', 'bigint')
      .execute();
    await kysely.insertInto('rows').values(ROWS).execute();
  });

  afterAll(async () => {
    await db?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(
    EXACT.map((filters) => [filters.map((f) => `${f.key}=${f.values.join(',')}`).join(' & '), filters]),
  )('answers %s as filterRows does', async (_name, filters) => {
    const where = listFilterSql(dialect, FIELDS, filters);
    expect(where).toBeDefined();
    const found = await kysely.selectFrom('rows').select('id').where(where!).orderBy('id').execute();
    const expected = filterRows(ROWS, filters).map((r) => r.id);
    expect(found.map((r) => r.id)).toEqual(expected);
  });

  it('leaves to memory what SQL cannot answer the same way', () => {
    for (const filters of [
      [filter('name', 'like', 'A_n%')],
      [filter('name', 'like', '%zoë')],
      [filter('name', 'ge', '50')],
      [filter('unknown', 'equals', 'x')],
    ]) {
      expect(listFilterSql(dialect, FIELDS, filters)).toBeUndefined();
    }
  });
});
