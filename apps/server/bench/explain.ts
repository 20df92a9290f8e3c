/**
 * Query plans and in-process timings of the benchmark's searches, without HTTP, on a data dir
 * kept by `npm run bench:search -- --keep` (or a PostgreSQL URL):
 *
 *   npx tsx --conditions=source bench/explain.ts --data-dir /tmp/bench-search-… [--database-url …]
 */
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { openDatabase } from '../src/db/dialect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { StudiesRepository } from '../src/repositories/studies.repository.js';
import { applyStudyFilters, applyStudySort } from '../src/repositories/study-search.sql.js';
import { studySearchRequest } from '@imaging-inbox/contract';
import { buildStudyQuery } from '../src/domain/study-query.js';

const { values } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    runs: { type: 'string', default: '50' },
    migrate: { type: 'boolean', default: false },
    analyze: { type: 'boolean', default: false },
  },
});
const db = openDatabase({ dataDir: values['data-dir'] ?? '.', databaseUrl: values['database-url'] });
if (values.migrate) console.log('migrated:', await migrateToLatest(db));
if (values.analyze) await sql`analyze`.execute(db.kysely);
const k = db.kysely;
const repo = new StudiesRepository(k);
const account = await k
  .selectFrom('accounts')
  .select('uuid')
  .where('vanity', '=', 'demo')
  .executeTakeFirstOrThrow();
const namespaces = (
  await k.selectFrom('groups').select('namespace_id').where('account_id', '=', account.uuid).execute()
).map((g) => g.namespace_id);
const sample = await k
  .selectFrom('studies')
  .select(['patient_name_key', 'accession_number', 'study_date'])
  .orderBy('uuid')
  .limit(1)
  .offset(1000)
  .executeTakeFirstOrThrow();
const cases: Record<string, Record<string, string>> = {
  'no filter': {},
  'name prefix': { 'filter.patient_name.like': `${sample.patient_name_key.slice(0, 3)}%` },
  accession: { 'filter.accession_number.equals': sample.accession_number },
  'date range': { 'filter.study_date.ge': '20250101', 'filter.study_date.le': '20250131' },
  modality: { 'filter.modality.in': '["CT","MR"]', sort_by: 'patient_name-asc' },
};
const runs = Number(values.runs);

async function plan(compiled: { sql: string; parameters: readonly unknown[] }) {
  const prefix = db.dialect === 'postgres' ? 'explain (analyze, buffers off) ' : 'explain query plan ';
  const { rows } = await k.executeQuery({
    ...compiled,
    sql: prefix + compiled.sql,
    query: compiled as never,
    queryId: { queryId: 'x' },
  });
  return rows.map((r) =>
    db.dialect === 'postgres'
      ? String((r as Record<string, unknown>)['QUERY PLAN'])
      : String((r as { detail: string }).detail),
  );
}

async function time(fn: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return `median ${times[Math.floor(runs / 2)]!.toFixed(2)} ms, p95 ${times[Math.ceil(runs * 0.95) - 1]!.toFixed(2)} ms`;
}

for (const [name, params] of Object.entries(cases)) {
  const q = buildStudyQuery(studySearchRequest.parse({ 'page.rows': '50', ...params }));
  // One arm of the merged list (one namespace); the list runs one such arm per namespace.
  const list = applyStudySort(
    applyStudyFilters(k, k.selectFrom('studies'), q, namespaces.slice(0, 1), 'exists'),
    q,
  )
    .selectAll('studies')
    .limit(51)
    .compile();
  const count = applyStudyFilters(k, k.selectFrom('studies'), q, namespaces)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .compile();
  console.log(`\n== ${name} ${JSON.stringify(params)}`);
  console.log(`list:  ${list.sql}`);
  for (const line of await plan(list)) console.log(`   ${line}`);
  console.log(`count: ${count.sql}`);
  for (const line of await plan(count)) console.log(`   ${line}`);
  console.log(`list  ${await time(() => repo.search(q, namespaces))}`);
  console.log(`count ${await time(() => repo.count(q, namespaces))}  (n=${await repo.count(q, namespaces)})`);
}
await db.close();
