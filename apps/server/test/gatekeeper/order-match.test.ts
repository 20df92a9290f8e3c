import { describe, expect, it } from 'vitest';
import {
  compareOrder,
  MULTIPLE_PATIENTS_WARNING,
  rankOrders,
  studyProcessRequest,
  type ExamDemographics,
  type OrderAttributes,
} from '@imaging-inbox/contract';

const exam: ExamDemographics = {
  patient_name: 'DOE^JANE',
  patientid: 'MRN-1',
  patient_birth_date: '19700102',
  patient_sex: 'F',
  accession_number: 'OUT-9',
  study_description: 'CT HEAD',
  modality: 'CT\\SR',
  study_date: '20261120',
  referring_physician: '',
};

const order = (o: Partial<OrderAttributes>): OrderAttributes => ({
  patient_name: 'DOE^JANE',
  patientid: 'MRN-1',
  patient_birth_date: '19700102',
  patient_sex: 'F',
  accession_number: 'ACC-1',
  requested_procedure: 'CT BRAIN',
  modality: 'CT',
  scheduled_date: '20261120',
  referring_physician: 'HOUSE^GREGORY',
  ...o,
});

describe('order comparison', () => {
  it('scores a perfect order 100 with a reason per criterion', () => {
    const c = compareOrder(exam, order({}));
    expect(c.score).toBe(100);
    expect(c.criteria.map((r) => [r.criterion, r.outcome, r.reason])).toEqual([
      ['mrn', 'match', 'MRN matches'],
      ['name', 'match', 'Name matches'],
      ['birth_date', 'match', 'Birth date matches'],
      ['sex', 'match', 'Sex matches'],
      // The exam's SR next to the ordered CT does not make it another modality.
      ['modality', 'match', 'Modality matches'],
      ['date', 'match', 'Date matches'],
    ]);
  });

  it('marks every attribute that differs, side by side', () => {
    const c = compareOrder(exam, order({ patient_birth_date: '1971-01-02' }));
    const differing = c.attributes.filter((a) => a.differs).map((a) => [a.label, a.exam, a.order]);
    expect(differing).toEqual([
      ['Birth date', '19700102', '1971-01-02'],
      ['Accession number', 'OUT-9', 'ACC-1'],
      ['Description', 'CT HEAD', 'CT BRAIN'],
      ['Referring physician', '', 'HOUSE^GREGORY'],
    ]);
    expect(c.criteria.find((r) => r.criterion === 'birth_date')?.reason).toBe(
      'Birth date differs: 1970-01-02 vs 1971-01-02',
    );
  });

  it('treats a swapped or differently cased name and a date days apart as close, not equal', () => {
    const c = compareOrder(exam, order({ patient_name: 'jane^doe', scheduled_date: '20261123' }));
    const by = Object.fromEntries(c.criteria.map((r) => [r.criterion, r]));
    expect(by['name']?.outcome).toBe('partial');
    expect(by['date']?.reason).toBe('Date is close: 2026-11-20 vs 2026-11-23 (3 days apart)');
    expect(c.score).toBe(100 - 13 - 5);
  });

  it('says a criterion is not known when one side is blank, and scores it nothing', () => {
    const c = compareOrder({ ...exam, patient_sex: '' }, order({}));
    expect(c.criteria.find((r) => r.criterion === 'sex')).toMatchObject({
      outcome: 'unknown',
      points: 0,
      reason: 'Sex is not known',
    });
  });
});

describe('order ranking', () => {
  it('ranks candidates best first, ties kept in the given order', () => {
    const other = order({
      patientid: 'MRN-2',
      patient_name: 'ROE^RICHARD',
      patient_birth_date: '19800101',
      patient_sex: 'M',
    });
    const sameButMrn = order({ patientid: 'MRN-X' });
    const tieA = order({ accession_number: 'A' });
    const tieB = order({ accession_number: 'B' });
    const { ranked, warnings } = rankOrders(exam, [other, sameButMrn, tieA, tieB]);
    expect(ranked.map((r) => [r.order.accession_number, r.order.patientid, r.score])).toEqual([
      ['A', 'MRN-1', 100],
      ['B', 'MRN-1', 100],
      ['ACC-1', 'MRN-X', 65],
      ['ACC-1', 'MRN-2', 15],
    ]);
    expect(warnings).toEqual([]);
  });

  it('warns when the exam holds more than one patient', () => {
    const patients = [
      { patient_name: 'DOE^JANE', patientid: 'MRN-1' },
      { patient_name: 'Doe^Jane', patientid: 'mrn-1' },
    ];
    expect(rankOrders({ ...exam, patients }, []).warnings).toEqual([]);
    const two = [...patients, { patient_name: 'ROE^RICHARD', patientid: 'MRN-2' }];
    expect(rankOrders({ ...exam, patients: two }, [order({})]).warnings).toEqual([MULTIPLE_PATIENTS_WARNING]);
  });
});

describe('study/process parameters', () => {
  it('takes the typed attributes, normalising dates and sex, blank meaning unchanged', () => {
    const parsed = studyProcessRequest.parse({
      uuid: 'u',
      destination_id: 'd',
      patient_birth_date: '1970-01-02',
      patient_sex: 'f',
      patient_name: ' ',
      order_id: 'o-1',
    });
    expect(parsed).toEqual({
      uuid: 'u',
      destinationId: 'd',
      priority: 'Routine',
      orderId: 'o-1',
      attributes: { patient_birth_date: '19700102', patient_sex: 'F' },
    });
  });

  it('refuses a bad date, sex or priority, and a missing destination', () => {
    const bad = (params: Record<string, string>) =>
      studyProcessRequest.safeParse({ uuid: 'u', destination_id: 'd', ...params }).success;
    expect(bad({ patient_birth_date: '02/01/1970' })).toBe(false);
    expect(bad({ patient_sex: 'X' })).toBe(false);
    expect(bad({ priority: 'Urgent' })).toBe(false);
    expect(studyProcessRequest.safeParse({ uuid: 'u' }).success).toBe(false);
  });
});
