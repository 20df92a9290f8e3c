import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@imaging-inbox/contract';
import { demoCustomFields } from '../../../test/custom-fields';
import { newStudy } from '../../../test/factories';
import { exchangeErrors, exchangeParams, initialExchangeValues } from './exchange-form';

const today = '2024-06-01';

describe('exchange form', () => {
  const fields = demoCustomFields();
  const study = newStudy({
    customfields: [
      { uuid: 'cf-priority', name: 'Clinical priority', value: 'Urgent' },
      { name: 'priority', value: 'Routine' },
    ],
  });

  it('starts from the study: date inputs as yyyy-MM-dd, values by field uuid, blanks for the rest', () => {
    const values = initialExchangeValues(study, fields);
    expect(values.exam.patient_birth_date).toBe('1980-01-01');
    expect(values.exam.study_date).toBe('2024-01-15');
    expect(values.custom).toEqual({ 'cf-priority': 'Urgent', 'cf-body': '', 'cf-ward': '', 'cf-reason': '' });
  });

  it('asks for every required custom field and checks options, lengths and dates', () => {
    const values = initialExchangeValues(study, fields);
    expect(exchangeErrors(values, fields, today)).toEqual({ 'cf-reason': MESSAGES.formEnterValue });
    values.custom['cf-reason'] = '   ';
    values.custom['cf-priority'] = '';
    values.custom['cf-body'] = 'Tail';
    values.custom['cf-ward'] = 'W'.repeat(257);
    values.exam.patient_birth_date = '2030-01-01';
    values.exam.study_date = '2024-13-40';
    expect(exchangeErrors(values, fields, today)).toEqual({
      'cf-reason': MESSAGES.formEnterValue,
      'cf-priority': MESSAGES.formEnterValue,
      'cf-body': MESSAGES.formInvalidValue,
      'cf-ward': 'Please enter at most 256 characters',
      patient_birth_date: MESSAGES.formDobFuture,
      study_date: MESSAGES.formDateFormat,
    });
  });

  it('refuses a study date before the birth date', () => {
    const values = initialExchangeValues(study, fields);
    values.custom['cf-reason'] = 'Fall';
    values.exam.study_date = '1979-12-31';
    expect(exchangeErrors(values, fields, today)).toEqual({ study_date: MESSAGES.formStudyBeforeBirth });
  });

  it('sends the changed exam fields, trimmed, and every custom field under customfield-{uuid}', () => {
    const values = initialExchangeValues(study, fields);
    values.exam.study_description = '  CT HEAD  ';
    values.exam.study_date = '2024-01-16';
    values.custom['cf-reason'] = ' Fall at home ';
    expect(exchangeParams(study, values, fields)).toEqual({
      study_description: 'CT HEAD',
      study_date: '2024-01-16',
      'customfield-cf-priority': 'Urgent',
      'customfield-cf-body': '',
      'customfield-cf-ward': '',
      'customfield-cf-reason': 'Fall at home',
    });
  });

  it('shows the patient name as every other screen does and saves it the DICOM way', () => {
    const lopez = newStudy({ patient_name: 'LOPEZ^ASHLEY' });
    const values = initialExchangeValues(lopez, []);
    expect(values.exam.patient_name).toBe('LOPEZ, ASHLEY');
    expect(exchangeParams(lopez, values, [])).toEqual({});
    values.exam.patient_name = 'LOPEZ, ASHLEY MARIE ';
    expect(exchangeParams(lopez, values, [])).toEqual({ patient_name: 'LOPEZ^ASHLEY MARIE' });
  });

  it('shows the referring physician as a name, not a DICOM value, and stores it back as one', () => {
    const carter = newStudy({ referring_physician: 'CARTER^JOHN' });
    const values = initialExchangeValues(carter, []);
    expect(values.exam.referring_physician).toBe('CARTER, JOHN');
    expect(exchangeParams(carter, values, [])).toEqual({});
    values.exam.referring_physician = 'CARTER, JANE';
    expect(exchangeParams(carter, values, [])).toEqual({ referring_physician: 'CARTER^JANE' });
  });
});
