import { filterRows, likeMatches, MAX_LIST_FILTERS, parseListFilters } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';

const spec = {
  fields: { name: ['equals', 'like', 'in'], size: ['ge', 'le'] },
  aliases: { 'filter.big': 'filter.size.ge' },
} as const;

describe('the filter grammar every list shares', () => {
  it('reads filter.<field>.<condition>, the short form as equals, and aliases', () => {
    const parsed = parseListFilters(
      { 'filter.name.like': '%card%', 'filter.name': 'Cardiology', 'filter.big': '10', 'page.rows': '2' },
      spec,
    );
    expect(parsed).toEqual({
      ok: true,
      filters: [
        { key: 'filter.name.like', field: 'name', condition: 'like', values: ['%card%'] },
        { key: 'filter.name', field: 'name', condition: 'equals', values: ['Cardiology'] },
        { key: 'filter.big', field: 'size', condition: 'ge', values: ['10'] },
      ],
    });
  });

  it('refuses an unknown field, an unknown condition, too many filters, a too-long value and a bad in list', () => {
    expect(parseListFilters({ 'filter.nope.equals': 'x' }, spec)).toMatchObject({
      ok: false,
      key: 'filter.nope.equals',
    });
    expect(parseListFilters({ 'filter.size.like': '1%' }, spec)).toMatchObject({
      ok: false,
      key: 'filter.size.like',
    });
    expect(parseListFilters({ 'filter.name.regex': '.*' }, spec)).toMatchObject({
      ok: false,
      key: 'filter.name.regex',
    });
    const many = Object.fromEntries(
      Array.from({ length: MAX_LIST_FILTERS + 1 }, (_, i) => [`filter.name.equals${i}`, 'x']),
    );
    expect(parseListFilters(many, spec)).toMatchObject({ ok: false, key: 'filter' });
    expect(parseListFilters({ 'filter.name.like': 'x'.repeat(1025) }, spec)).toMatchObject({
      ok: false,
      key: 'filter.name.like',
    });
    expect(parseListFilters({ 'filter.name.in': '[1,' }, spec)).toMatchObject({
      ok: false,
      key: 'filter.name.in',
    });
    expect(
      parseListFilters({ 'filter.name.in': JSON.stringify(Array.from({ length: 101 }, String)) }, spec),
    ).toMatchObject({ ok: false });
    expect(parseListFilters({ 'filter.constructor': 'x' }, spec)).toMatchObject({ ok: false });
  });

  it('matches LIKE patterns with % and _ only, case-insensitively, in bounded time', () => {
    expect(likeMatches('%card%', 'Cardiology')).toBe(true);
    expect(likeMatches('card%', 'Cardiology')).toBe(true);
    expect(likeMatches('%logy', 'Cardiology')).toBe(true);
    expect(likeMatches('c_rd%', 'Cardiology')).toBe(true);
    expect(likeMatches('card', 'Cardiology')).toBe(false);
    expect(likeMatches('a%a', 'a')).toBe(false);
    expect(likeMatches('%', '')).toBe(true);
    expect(likeMatches('.*', 'anything')).toBe(false);
    // A list of 5,000 rows of 1,024-character values against a 1,024-character pattern built to
    // make a naive matcher backtrack.
    const rows = Array.from({ length: 5000 }, () => ({ name: 'a'.repeat(1024) }));
    const pattern = `%${'a'.repeat(300)}b%${'a_'.repeat(200)}%`;
    const parsed = parseListFilters({ 'filter.name.like': pattern }, spec);
    const start = Date.now();
    expect(parsed.ok && filterRows(rows, parsed.filters)).toEqual([]);
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('filters rows on their own fields, numbers compared as numbers', () => {
    const rows = [
      { name: 'Cardiology', size: 12 },
      { name: 'Emergency', size: 3 },
      { name: 'Intake', size: null },
    ];
    const parsed = parseListFilters({ 'filter.size.ge': '4' }, spec);
    expect(parsed.ok && filterRows(rows, parsed.filters)).toEqual([rows[0]]);
    const named = parseListFilters({ 'filter.name.in': '["Intake","Emergency"]' }, spec);
    expect(named.ok && filterRows(rows, named.filters).map((r) => r.name)).toEqual(['Emergency', 'Intake']);
  });
});
