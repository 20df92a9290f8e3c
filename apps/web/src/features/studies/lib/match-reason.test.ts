import { afterEach, describe, expect, it } from 'vitest';
import { compareOrder, type ExamDemographics } from '@imaging-inbox/contract';
import { setLanguage } from '../../../lib/i18n';
import { matchReasons } from './match-reason';

const exam: ExamDemographics = {
  patient_name: 'CARTER^JOHN',
  patientid: 'MRN1',
  patient_birth_date: '19700101',
  patient_sex: 'M',
  accession_number: '',
  study_description: 'CT HEAD',
  modality: 'SR\\US',
  study_date: '20251228',
  referring_physician: '',
};

describe('matchReasons', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it('says each criterion in words, dates in the user format, modalities and names without DICOM marks', () => {
    const comparison = compareOrder(exam, {
      patientid: 'MRN1',
      patient_name: 'CARTER^JOHNNY',
      patient_birth_date: '19700102',
      patient_sex: '',
      modality: 'MR',
      scheduled_date: '20261201',
    });
    expect(matchReasons(comparison, 'DD/MM/YYYY')).toBe(
      [
        'MRN matches',
        'Name is close: CARTER, JOHN vs CARTER, JOHNNY',
        'Birth date differs: 01/01/1970 vs 02/01/1970',
        'Sex is not known',
        'Modality differs: SR, US vs MR',
        'Date differs: 28/12/2025 vs 01/12/2026 (338 days apart)',
      ].join(' · '),
    );
  });

  it('speaks French, one day apart in the singular', async () => {
    await setLanguage('fr');
    const comparison = compareOrder(exam, { patientid: 'MRN1', scheduled_date: '20251229' });
    expect(matchReasons(comparison, 'DD-MM-YYYY')).toContain(
      "Date : proche, 28-12-2025 / 29-12-2025 (1 jour d'écart)",
    );
    expect(matchReasons(comparison, 'DD-MM-YYYY')).toContain('IPP : identique');
  });
});
