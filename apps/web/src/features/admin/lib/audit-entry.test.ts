import { describe, expect, it } from 'vitest';
import { detailText, filtersText } from './audit-entry';

const ctx = { day: (d: string) => `${d.slice(6, 8)}-${d.slice(4, 6)}-${d.slice(0, 4)}` };

describe('filtersText', () => {
  it('says a search’s filters in words, its groups by name', () => {
    expect(
      filtersText(
        {
          'filter.phi_namespace.in': JSON.stringify(['ns1', 'ns2']),
          'filter.modality.in': JSON.stringify(['CT']),
          'filter.patient_birth_date.equals': '19800131',
          'filter.created.le': '2026-03-02',
          'filter.has_direct_shares.equals': '1',
        },
        { ...ctx, groupNames: { ns1: 'Emergency', ns2: 'Cardiology' } },
      ),
    ).toBe(
      'Filters: Group is one of Emergency, Cardiology, Modality is CT, Date of birth is 31-01-1980, ' +
        'Uploaded date until 02-03-2026, Has direct shares is Yes',
    );
  });

  it('names a group it cannot name as unknown, and a search without filters as such', () => {
    expect(filtersText({ 'filter.phi_namespace.equals': 'gone' }, ctx)).toBe(
      'Filters: Group is Unknown group',
    );
    expect(filtersText({ 'filter.timezone': 'UTC' }, ctx)).toBe('No filters');
  });
});

describe('detailText', () => {
  it('keeps other details as recorded, and cuts a long line', () => {
    expect(detailText({ detail: { login: 'viewer@demo.local', reason: null } }, ctx)).toBe(
      'login: viewer@demo.local',
    );
    expect(detailText({ detail: { note: 'x'.repeat(200) } }, ctx, 20)).toBe(`note: ${'x'.repeat(13)}…`);
    expect(detailText({ detail: null }, ctx)).toBe('');
  });
});
