import { orderWrittenValues } from '@imaging-inbox/contract';
import type {
  DestinationSearchResult,
  ExamDemographics,
  Nomination,
  OrderAttributes,
  PacsPromotePreference,
  Study,
} from '@imaging-inbox/contract';

/** The steps of the Process tab (SPEC.md section 2, Process flow). */
export type ProcessStep = 'nomination' | 'search-order' | 'search-patient' | 'comparison';

/** Each promote preference's steps, in order: MWL searches orders, C-Find patients, no query neither. */
export const PROCESS_STEPS: Record<PacsPromotePreference, readonly ProcessStep[]> = {
  MWL: ['nomination', 'search-order', 'comparison'],
  'C-Find': ['nomination', 'search-patient', 'comparison'],
  NONE: ['nomination', 'comparison'],
};

export const STEP_LABELS: Record<ProcessStep, string> = {
  nomination: 'Nomination',
  'search-order': 'Search Order',
  'search-patient': 'Search Patient',
  comparison: 'Order Comparison',
};

/** The step after or before `step` in `steps`, kept within the first and the last. */
export function stepBy(steps: readonly ProcessStep[], step: ProcessStep, by: 1 | -1): ProcessStep {
  const i = steps.indexOf(step);
  return steps[Math.min(steps.length - 1, Math.max(0, i + by))]!;
}

/** The exam as the comparison reads it. */
export function examDemographics(study: Study): ExamDemographics {
  return {
    patient_name: study.patient_name,
    patientid: study.patientid,
    patient_birth_date: study.patient_birth_date,
    patient_sex: study.patient_sex,
    accession_number: study.accession_number,
    study_description: study.study_description,
    modality: study.modality,
    study_date: study.study_date,
    referring_physician: study.referring_physician,
  };
}

/** A patient's exam found by C-FIND, as an order to compare with and to write into the exam. */
export function orderOfFoundExam(found: DestinationSearchResult): OrderAttributes {
  return {
    patient_name: found.patient_name,
    patientid: found.patientid,
    patient_birth_date: found.patient_birth_date,
    patient_sex: found.patient_sex,
    accession_number: found.accession_number,
    requested_procedure: found.study_description,
    modality: found.modality,
    scheduled_date: found.study_date,
    referring_physician: '',
  };
}

export interface NominatorRow {
  label: string;
  exam: string;
  nominated: string;
  differs: boolean;
}

/** What the nominator said beside what the exam holds: MRN, modality, description, referring physician. */
export function nominatorComparison(study: Study, nomination: Nomination): NominatorRow[] {
  const rows: [string, string, string | undefined][] = [
    ['MRN', study.patientid, nomination.answers['mrn']],
    ['Modality', study.modality, nomination.answers['modality']],
    ['Description', study.study_description, nomination.answers['exam_external_description']],
    ['Referring physician', study.referring_physician, nomination.answers['referring_physician']],
  ];
  const norm = (v: string) => v.trim().toUpperCase().replace(/\^+/g, ' ').trim();
  return rows.map(([label, exam, nominated = '']) => ({
    label,
    exam,
    nominated,
    differs: nominated.trim() !== '' && norm(exam) !== norm(nominated),
  }));
}

/** The Order Comparison form (SPEC.md section 5, Comparison). */
export interface ComparisonForm {
  accessionNumber: string;
  priority: 'Routine' | 'Priority';
  destinationId: string;
}

export const DESTINATION_REQUIRED = 'Destination system is required';

export function comparisonProblems(form: ComparisonForm): { destinationId?: string } {
  return form.destinationId.trim() ? {} : { destinationId: DESTINATION_REQUIRED };
}

/**
 * study/process's parameters: the chosen order's attributes (blank ones keep the exam's value), the
 * typed accession number over the order's, the destination and the priority.
 */
export function processParams(
  copyUuid: string,
  order: (Partial<OrderAttributes> & { uuid?: string }) | null,
  form: ComparisonForm,
): Record<string, string> {
  const params: Record<string, string> = {
    uuid: copyUuid,
    destination_id: form.destinationId,
    priority: form.priority,
  };
  if (order) {
    Object.assign(params, orderWrittenValues(order));
    if (order.uuid) params['order_id'] = order.uuid;
  }
  const accession = form.accessionNumber.trim();
  if (accession) params['accession_number'] = accession;
  return params;
}

/** Where Start over returns: the search step of the flow, or the Nomination step when it has none. */
export function startOverStep(steps: readonly ProcessStep[]): ProcessStep {
  return steps.find((s) => s === 'search-order' || s === 'search-patient') ?? 'nomination';
}
