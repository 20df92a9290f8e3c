import { describe, expect, it } from 'vitest';
import { matcherFor, wildcardMatch } from './query-matching.js';

describe('C-FIND wildcard matching', () => {
  it.each([
    ['DOE*', 'DOE^JOHN', true],
    ['*JOHN', 'DOE^JOHN', true],
    ['D?E*', 'DOE^JOHN', true],
    ['D?E', 'DOE^JOHN', false],
    ['*', '', true],
    ['?', '', false],
    ['A*B*C', 'AXXBYYC', true],
    ['A*B*C', 'AXXBYY', false],
    ['a.b', 'axb', false],
    ['(x)', '(x)', true],
  ])('%s against %s is %s', (pattern, text, expected) => {
    expect(wildcardMatch(pattern, text)).toBe(expected);
  });

  it('matches names case-blind through the key matcher', () => {
    expect(matcherFor('name', 'doe*')!('DOE^JANE')).toBe(true);
    expect(matcherFor('name', 'roe*')!('DOE^JANE')).toBe(false);
  });

  it('answers a key of many stars against a long value at once (no backtracking blow-up)', () => {
    // As a regular expression, ^.*A.*A…B$ on 1,000 A's backtracks for longer than any test runs.
    const key = `${'*A'.repeat(500)}*B`;
    const stored = 'A'.repeat(1000);
    expect(matcherFor('text', key)!(stored)).toBe(false);
    expect(matcherFor('text', key)!(`${stored}B`)).toBe(true);
  });
});
