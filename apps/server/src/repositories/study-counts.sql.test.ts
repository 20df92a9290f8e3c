import { describe, expect, it } from 'vitest';
import type { MonthBound } from './study-counts.sql.js';
import { wholeMonths } from './study-counts.sql.js';

/** What the bounds stand for: every calendar date of the month is within the range. */
function wholeByConcatenation(month: string, ge: string | undefined, le: string | undefined): boolean {
  return (ge === undefined || `${month}01` >= ge) && (le === undefined || `${month}31` <= le);
}

const COMPARE: Record<MonthBound['op'], (a: string, b: string) => boolean> = {
  '>=': (a, b) => a >= b,
  '>': (a, b) => a > b,
  '<=': (a, b) => a <= b,
  '<': (a, b) => a < b,
};

function wholeByBounds(month: string, ge: string | undefined, le: string | undefined): boolean {
  return wholeMonths(ge, le).every((bound) => COMPARE[bound.op](month, bound.month));
}

describe('wholeMonths', () => {
  const months = ['202512', '202601', '202602', '202603', '202612', '202701'];
  const bounds = [
    undefined,
    '20260101',
    '20260102',
    '20260131',
    '20260130',
    '20260201',
    '20260228',
    '20260229',
    '20260231',
    '20260300',
    '20261231',
    '2026',
    '202602',
    '2026021',
    '202602310',
  ];

  it('keeps exactly the months wholly inside every range, odd bounds included', () => {
    let compared = 0;
    for (const month of months) {
      for (const ge of bounds) {
        for (const le of bounds) {
          expect(wholeByBounds(month, ge, le), `${month} in ${ge}..${le}`).toBe(
            wholeByConcatenation(month, ge, le),
          );
          compared++;
        }
      }
    }
    expect(compared).toBe(months.length * bounds.length * bounds.length);
  });

  it('takes a month from its first day to its last', () => {
    expect(wholeMonths('20260201', '20260331')).toEqual([
      { op: '>=', month: '202602' },
      { op: '<=', month: '202603' },
    ]);
    expect(wholeMonths('20260202', '20260330')).toEqual([
      { op: '>', month: '202602' },
      { op: '<', month: '202603' },
    ]);
    expect(wholeMonths(undefined, undefined)).toEqual([]);
  });
});
