import {
  ROUTE_REGEX_INPUT_MAX,
  ROUTE_REGEX_MAX_COST,
  routeRegexCost,
  routeRegexProblem,
} from '@imaging-inbox/contract';
import type { RouteCondition } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import { matches } from '../../src/modules/routing/routing-conditions.js';
import type { RoutedStudy } from '../../src/modules/routing/routing-conditions.js';
import {
  UserPatternError,
  userPatternProblem,
  userPatternTest,
} from '../../src/modules/routing/user-pattern.js';

/** Patterns that backtrack for hours in JavaScript's engine on a long enough text without a match. */
const EVIL = [
  '.*.*.*.*x',
  'a*a*a*a*a*a*b',
  '.*.*.*.*.*.*.*.*.*.*.*.*x',
  '(a+)+$',
  '(a|aa)+$',
  '(a*)*b',
  '^(\\w+\\s?)*$',
  '(.*a){12}',
];

/** 1,024-character names built to make those patterns backtrack (nothing in them completes a match). */
const LONG_NAMES = [
  'A'.repeat(ROUTE_REGEX_INPUT_MAX - 2) + '^!',
  'a'.repeat(ROUTE_REGEX_INPUT_MAX),
  'ab '.repeat(ROUTE_REGEX_INPUT_MAX / 4) + '!',
  'é'.repeat(ROUTE_REGEX_INPUT_MAX),
];

const study = (patientName: string): RoutedStudy => ({
  modality: 'CT',
  source_ae_title: 'GW',
  destination_ae_title: 'INBOX',
  referring_physician: '',
  study_description: '',
  patient_name: patientName,
});

describe('user-supplied patterns (RE2 semantics, re2js)', () => {
  it('runs the catastrophic patterns on 1,024-character names in bounded time', () => {
    const started = performance.now();
    let slowest = 0;
    for (const pattern of EVIL)
      for (const name of LONG_NAMES) {
        const t = performance.now();
        userPatternTest(pattern, name, ROUTE_REGEX_INPUT_MAX);
        slowest = Math.max(slowest, performance.now() - t);
      }
    // JavaScript's engine takes seconds on `.*.*.*.*x` at 180 characters and hours at 1,024; a
    // linear engine takes milliseconds (the bound leaves room for a busy test machine).
    expect(slowest).toBeLessThan(250);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('evaluates a rule of twenty such conditions without holding the event loop', async () => {
    const conditions: RouteCondition[] = Array.from({ length: 20 }, (_, i) => ({
      field: 'patient_name',
      op: 'regex',
      // Never met ('#' is in no name), so every condition is tested.
      value: `(?:${EVIL[i % EVIL.length]!})#`,
    }));
    // The longest stretch the event loop went without running a timer while the rule was tested.
    let last = performance.now();
    let longestHold = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestHold = Math.max(longestHold, now - last);
      last = now;
    }, 1);
    for (const name of LONG_NAMES) {
      // 'any' tests every condition, on the name as stored and as written.
      expect(await matches(conditions, 'any', study(name), new Map())).toBe(false);
    }
    clearInterval(ticker);
    // Other work ran between the tests: the process was held for about one test at a time,
    // not for the 160 tests of the evaluation together.
    expect(longestHold).toBeLessThan(250);
  });

  it('still matches what the patterns mean, case-insensitively and on Unicode characters', () => {
    expect(userPatternTest('^doe\\^', 'DOE^JOHN', 1024)).toBe(true);
    expect(userPatternTest('a*a*a*a*a*a*b', 'aaaab', 1024)).toBe(true);
    expect(userPatternTest('^élise$', 'ÉLISE', 1024)).toBe(true);
    expect(userPatternTest('^\\p{L}+$', 'Zoë', 1024)).toBe(true);
    expect(userPatternTest('^(CT|MR)$', 'PT', 1024)).toBe(false);
    // Only the first characters are read.
    expect(userPatternTest('x', 'a'.repeat(10) + 'x', 10)).toBe(false);
  });

  it('refuses what RE2 cannot run, with the reason', () => {
    for (const pattern of ['(a)\\1', 'a(?=b)', '(?<!a)b', '[\\b]', '\\k<n>(?<n>x)'])
      expect(userPatternProblem(pattern), pattern).toMatch(/safe regex engine \(RE2\)/);
    expect(() => userPatternTest('(a)\\1', 'aa', 1024)).toThrow(UserPatternError);
    expect(userPatternProblem('^(CT|MR)$')).toBeNull();
  });

  it('keeps the repetition a saved pattern may hold to what RE2 runs in milliseconds', () => {
    // At the cost limit, the patterns that cost RE2 most (many UTF-8 ranges, alternations it
    // cannot turn into one state) still take a few milliseconds on the longest value read.
    const atLimit = [
      '[\\p{L}\\p{N}]{1,9}z',
      '(?:.|..|...|....){9}z',
      '\\P{L}{10}',
      '[^z]{10}',
      '.{1,99}z',
      '(?:(?:.{1,10}){1,3}){3}z',
    ];
    const inputs = [
      ...LONG_NAMES,
      Array.from({ length: ROUTE_REGEX_INPUT_MAX }, (_, i) => String.fromCharCode(0x4e00 + i)).join(''),
    ];
    for (const pattern of atLimit) {
      expect(routeRegexCost(pattern), pattern).toBeLessThanOrEqual(ROUTE_REGEX_MAX_COST);
      expect(routeRegexProblem(pattern), pattern).toBeNull();
      let slowest = 0;
      for (const input of inputs) {
        const t = performance.now();
        userPatternTest(pattern, input, ROUTE_REGEX_INPUT_MAX);
        slowest = Math.max(slowest, performance.now() - t);
      }
      expect(slowest, pattern).toBeLessThan(250);
    }
    // Beyond it, a pattern is refused when saved.
    for (const pattern of [
      '[\\p{L}\\p{N}]{1,100}z',
      '(?:.|..|...|....){100}z',
      '(.{1,100}){1,10}z',
      'a{101}',
    ])
      expect(routeRegexProblem(pattern), pattern).toMatch(/repeats too much/);
  });
});
