import { FILTER_TEXT_CHARS, type ListFilter } from '@imaging-inbox/contract';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { DialectName } from '../db/dialect.js';

/**
 * A list field as its filters read it in the database: the SQL of the answer's field, and whether
 * it is text or a whole number (`filterRows` in the contract reads both as text, absent as empty).
 */
export interface FilterField {
  kind: 'text' | 'integer';
  value: RawBuilder<unknown>;
}

/**
 * A list's filters as one SQL condition, giving the rows `filterRows` (packages/contract
 * list-filters.ts) gives on the answer's fields, so a list filters and pages in its query instead
 * of reading its rows whole. Where SQL cannot promise the same answer, `undefined` says the list
 * must filter in memory as before: a `like` pattern with `_` (one character in SQL, one UTF-16
 * unit in JavaScript) or other than ASCII (case folding beyond ASCII differs between SQLite,
 * PostgreSQL's locales and JavaScript), and an order comparison of text with a number (JavaScript
 * compares a numeric text as a number). Empty filters give `sql\`1 = 1\``.
 */
export function listFilterSql(
  dialect: DialectName,
  fields: Readonly<Record<string, FilterField>>,
  filters: readonly ListFilter[],
): RawBuilder<SqlBool> | undefined {
  const conditions: RawBuilder<SqlBool>[] = [];
  for (const filter of filters) {
    const field = fields[filter.field];
    const condition = field && conditionOf(dialect, field, filter);
    if (!condition) return undefined;
    conditions.push(condition);
  }
  return conditions.length ? sql<SqlBool>`(${sql.join(conditions, sql` and `)})` : sql<SqlBool>`1 = 1`;
}

const NUMBER = (text: string) => text !== '' && Number.isFinite(Number(text));
const ORDER = { ge: '>=', gt: '>', le: '<=', lt: '<' } as const;

function conditionOf(
  dialect: DialectName,
  field: FilterField,
  { condition, values }: ListFilter,
): RawBuilder<SqlBool> | undefined {
  // The value as the filters read it: text over its first FILTER_TEXT_CHARS characters, a number
  // in decimal, absent as empty.
  const text =
    field.kind === 'text'
      ? sql`coalesce(substr(${field.value}, 1, ${sql.lit(FILTER_TEXT_CHARS)}), '')`
      : sql`coalesce(cast(${field.value} as text), '')`;
  const [first = ''] = values;
  switch (condition) {
    case 'equals':
      return sql<SqlBool>`${text} = ${first}`;
    case 'in':
      // An empty list matches nothing (and `in ()` is no SQL on PostgreSQL).
      return values.length ? sql<SqlBool>`${text} in (${sql.join(values)})` : sql<SqlBool>`1 = 0`;
    case 'like': {
      // eslint-disable-next-line no-control-regex
      if (first.includes('_') || /[^\x00-\x7f]/.test(first)) return undefined;
      const pattern = first.toLowerCase().replace(/\\/g, '\\\\');
      return sql<SqlBool>`lower(${text}) like ${pattern} escape '\\'`;
    }
    default: {
      const op = sql.raw(ORDER[condition]);
      // An absent value reads as empty text, which sorts before any value a filter names.
      const absent = condition === 'le' || condition === 'lt' ? sql`1 = 1` : sql`1 = 0`;
      if (NUMBER(first)) {
        if (field.kind === 'text') return undefined;
        // Written out, not bound: a bound fraction would not compare with PostgreSQL's bigint.
        const number = sql.lit(Number(first));
        return sql<SqlBool>`(case when ${field.value} is null then ${absent} else ${field.value} ${op} ${number} end)`;
      }
      // Text against text that is not a number: by character codes, on either database.
      const binary = dialect === 'postgres' ? sql` collate "C"` : sql``;
      return sql<SqlBool>`${text}${binary} ${op} ${first}`;
    }
  }
}
