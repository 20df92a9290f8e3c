import { describe, expect, it } from 'vitest';
import { effectiveSort, sortOptions } from './sort-options';

describe('sort options by state', () => {
  it('offers all nine options in gatekeeper Nominations', () => {
    expect(sortOptions('GATEKEEPER', 'Nominations')).toEqual([
      'Priority',
      'Newest nomination',
      'Oldest nomination',
      'Newest upload',
      'Oldest upload',
      'Oldest exam date',
      'Newest exam date',
      'Name (A to Z)',
      'Name (Z to A)',
    ]);
  });
  it.each([
    ['CLOUD', 'Inbox'],
    ['GATEKEEPER', 'Queued'],
    ['LIBRARY', 'Inbox'],
    ['ALL', 'Inbox'],
  ] as const)('hides nomination sorts in %s %s', (type, state) => {
    const options = sortOptions(type, state);
    expect(options).toHaveLength(6);
    expect(options).not.toContain('Priority');
    expect(options).not.toContain('Newest nomination');
  });
  it('falls back to Newest upload when the sort is not allowed', () => {
    expect(effectiveSort('customfield-priority-asc', sortOptions('CLOUD', 'Inbox'))).toBe('created-desc');
    expect(effectiveSort('patient_name-asc', sortOptions('CLOUD', 'Inbox'))).toBe('patient_name-asc');
    expect(effectiveSort('customfield-priority-asc', sortOptions('GATEKEEPER', 'Nominations'))).toBe(
      'customfield-priority-asc',
    );
  });
});
