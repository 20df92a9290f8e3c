import { describe, expect, it } from 'vitest';
import { afterEach } from 'vitest';
import { setLanguage, t } from '../../../lib/i18n';
import { actionLabel, detailText, filtersText, queryText } from './audit-entry';

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
        'Uploaded date until 02-03-2026, Shared with me is Yes',
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
  it('names known details in words, keeps others as recorded, and cuts a long line', () => {
    expect(detailText({ detail: { login: 'viewer@demo.local', reason: null } }, ctx)).toBe(
      'Email: viewer@demo.local',
    );
    expect(detailText({ detail: { note: 'x'.repeat(200) } }, ctx, 20)).toBe(`Note: ${'x'.repeat(13)}…`);
    expect(detailText({ detail: null }, ctx)).toBe('');
  });
});

describe('details as sentences', () => {
  afterEach(async () => {
    await setLanguage('en');
  });
  const timestamp = (iso: string) => `at ${iso.slice(0, 10)}`;

  it('says how many results a search found, without the protocol or page it came by', () => {
    expect(
      detailText({ detail: { via: 'qido-rs', query: { StudyInstanceUID: '1.2.3' }, returned: 1 } }, ctx),
    ).toBe('Filters: Study UID is 1.2.3 · 1 result');
    expect(detailText({ detail: { page: 1, returned: 0 } }, ctx)).toBe('0 results');
    expect(detailText({ detail: { via: 'study/thumbnails' } }, ctx)).toBe('');
    expect(actionLabel('THUMBNAIL_VIEW')).toBe('Thumbnails viewed');
  });

  it('reads a DICOMweb query as its filters: names as names, days in the user format, wildcards as contains', () => {
    expect(
      queryText(
        { PatientName: 'DOE^JANE*', StudyDate: '20251228', ModalitiesInStudy: 'SR\\US', limit: 10 },
        ctx,
      ),
    ).toBe('Filters: Patient name contains DOE, JANE, Study date is 28-12-2025, Modality is SR, US');
  });

  it('shows an expiry in the user date format and zone, and names a group instead of its uuid', () => {
    const group = '0b0e6a3c-1d2e-4f5a-8b9c-0d1e2f3a4b5c';
    const copy = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
    expect(detailText({ detail: { expires: Date.UTC(2026, 11, 1) } }, { ...ctx, timestamp })).toBe(
      'valid until at 2026-12-01',
    );
    expect(
      detailText(
        { detail: { target_namespace_id: group, copy_uuid: copy }, group_names: { [group]: 'Referrals' } },
        ctx,
      ),
    ).toBe('To group: Referrals');
  });

  it("reads a send as a sentence: the group and the copy by name, its time in the user's format, no ids", () => {
    const group = '0b0e6a3c-1d2e-4f5a-8b9c-0d1e2f3a4b5c';
    const copy = '9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a';
    const send = {
      send: '11111111-2222-4333-8444-555555555555',
      method: 'share_code',
      target_namespace_id: group,
      connection_id: null,
      delayed: true,
      run_at: Date.UTC(2026, 11, 1, 9, 30),
      copy_uuid: copy,
      target_account_id: '22222222-2222-4333-8444-555555555555',
    };
    expect(
      detailText(
        {
          detail: send,
          group_names: { [group]: 'Referrals' },
          study_names: { [copy]: { patient_name: 'DOE^JANE', description: 'CT HEAD' } },
        },
        { ...ctx, timestamp },
      ),
    ).toBe(
      'Method: By share code · To group: Referrals · Delayed: Yes · Scheduled for: at 2026-12-01 · Copy: DOE, JANE · CT HEAD',
    );
    // Into another account: its group and copy are not named, and no uuid shows.
    expect(detailText({ detail: send }, { ...ctx, timestamp })).toBe(
      "Method: By share code · To group: not one of this account's groups · Delayed: Yes · Scheduled for: at 2026-12-01",
    );
  });

  it('names what an administration change changed, and where an exam came from, in words', () => {
    expect(
      detailText(
        {
          detail: {
            before: { name: 'A', port: 104, aetitle: 'X' },
            after: { name: 'B', port: 11112, aetitle: 'X' },
          },
        },
        ctx,
      ),
    ).toBe('Changed: Name, Port');
    expect(detailText({ detail: { source: 'cstore', calling_ae: 'CT01', blob_key: 'ab/cd' } }, ctx)).toBe(
      'Source: DICOM network · Sending AE title: CT01',
    );
    expect(
      detailText({ detail: { bundle: 'iso', series: 2, instances: 40, bytes: 5 * 1024 * 1024 } }, ctx),
    ).toBe('Format: ISO · Series: 2 · Images: 40 · Size: 5.0 MB');
  });

  it('speaks French: actions, counts, fields', async () => {
    await setLanguage('fr');
    expect(detailText({ detail: { via: 'qido-rs', returned: 2 } }, ctx)).toBe('2 résultats');
    expect(detailText({ detail: { fields: ['language', 'time_zone'] } }, ctx)).toBe(
      'Modifié : Langue, Fuseau horaire',
    );
    expect(detailText({ detail: { fields: [] } }, ctx)).toBe('');
    expect(t(actionLabel('THUMBNAIL_VIEW'))).toBe('Vignettes consultées');
    expect(
      detailText({ detail: { method: 'share_code', target_namespace_id: 'ns9', delayed: false } }, ctx),
    ).toBe('Méthode : Par code de partage · Vers le groupe : aucun des groupes de ce compte · Différé : Non');
  });
});
