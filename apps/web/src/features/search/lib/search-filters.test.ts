import { describe, expect, it } from 'vitest';
import { EMPTY_ADVANCED_FILTERS, type AdvancedFilters } from './advanced-filters';
import { countAdvancedFilters, searchFilters } from './search-filters';

const today = new Date(2024, 4, 15, 12, 0);
const search = (advanced: Partial<AdvancedFilters>, patientName = '') => ({
  patientName,
  advanced: { ...EMPTY_ADVANCED_FILTERS, ...advanced },
});

describe('searchFilters', () => {
  it('adds nothing for an empty search', () => {
    expect(searchFilters(search({}), today, 'Europe/Paris')).toEqual({});
  });

  it('searches the patient name box as a partial match', () => {
    expect(searchFilters(search({}, ' DOE%JOHN '), today, 'UTC')).toEqual({
      'filter.patient_name.like': '%DOE%JOHN%',
    });
  });

  it('prefers the advanced patient name', () => {
    expect(searchFilters(search({ patientName: 'SMITH' }, 'DOE'), today, 'UTC')).toEqual({
      'filter.patient_name.like': '%SMITH%',
    });
  });

  it('maps every advanced field to its filter key', () => {
    const filters = searchFilters(
      search({
        mrn: 'MRN1',
        birthDate: '01-31-1980',
        sex: 'F',
        accessionNumber: ' ACC9 ',
        referringPhysician: 'HOUSE',
        modalities: { all: false, selected: ['CT', 'MR'] },
        starred: '1',
        thin: '0',
        studyUid: '1.2.3',
        studyUuid: 'u-1',
        sourceTitle: 'CT01',
        destinationTitle: 'INBOX',
        studyDate: {
          label: 'Custom date range',
          mode: 'Between',
          startDate: '2024-01-01',
          endDate: '2024-01-31',
        },
        uploadedDate: { label: 'Today', mode: 'Between', startDate: null, endDate: null },
        tags: ['urgent', 'teaching'],
        studyDescription: 'CHEST',
      }),
      today,
      'America/New_York',
    );
    expect(filters).toEqual({
      'filter.patientid.like': '%MRN1%',
      'filter.patient_birth_date.equals': '19800131',
      'filter.patient_sex.equals': 'F',
      'filter.accession_number.equals': 'ACC9',
      'filter.referring_physician.like': '%HOUSE%',
      'filter.modality.in': '["CT","MR"]',
      'filter.star.equals': '1',
      'filter.thin.equals': '0',
      'filter.study_uid.equals': '1.2.3',
      'filter.uuid.equals': 'u-1',
      'filter.source_ae_title.like': '%CT01%',
      'filter.destination_ae_title.like': '%INBOX%',
      'filter.study_date.ge': '20240101',
      'filter.study_date.le': '20240131',
      'filter.created.ge': '2024-05-15',
      'filter.created.le': '2024-05-15',
      'filter.timezone': 'America/New_York',
      'filter.tags.in': '["urgent","teaching"]',
      'filter.study_description.like': '%CHEST%',
    });
  });

  it('applies date search modes', () => {
    const before = searchFilters(
      search({
        studyDate: { label: 'Custom date range', mode: 'Before', startDate: null, endDate: '2024-02-01' },
      }),
      today,
      'UTC',
    );
    expect(before).toEqual({ 'filter.study_date.le': '20240201' });
  });

  it('ignores an invalid birth date', () => {
    expect(searchFilters(search({ birthDate: '13-45-2000' }), today, 'UTC')).toEqual({});
  });

  it('counts advanced filters without the patient name', () => {
    expect(countAdvancedFilters(search({ mrn: 'x', sex: 'M' }, 'DOE').advanced, today)).toBe(2);
    expect(countAdvancedFilters(search({ patientName: 'DOE' }).advanced, today)).toBe(0);
  });
});
