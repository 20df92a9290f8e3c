/**
 * The attributes each C-FIND level answers from the index (no file is read), with how each matches
 * (query-matching.ts). A key asked for that the index does not hold is answered empty (PS3.4
 * C.2.2.1.3: a return key the SCP does not support) and not matched on.
 */
import type { MatchKind } from './query-matching.js';
import type {
  QueryInstanceRow,
  QueryPatientRow,
  QuerySeriesRow,
  QueryStudyRow,
} from './query-index.repository.js';

export interface Attribute<Row> {
  kind: MatchKind;
  value: (row: Row) => string;
  /** Several values held `\`-joined (ModalitiesInStudy): any of them may match. */
  multi?: boolean;
}

const text = <Row>(value: (row: Row) => string): Attribute<Row> => ({ kind: 'text', value });
const number = (n: number | null): string => (n === null || n === undefined ? '' : String(n));

export const PATIENT_ATTRIBUTES: Record<string, Attribute<QueryPatientRow>> = {
  PatientName: { kind: 'name', value: (r) => r.patient_name },
  PatientID: text((r) => r.patientid),
  PatientBirthDate: { kind: 'date', value: (r) => r.patient_birth_date },
  PatientSex: text((r) => r.patient_sex),
  NumberOfPatientRelatedStudies: text((r) => String(r.studies)),
};

export const STUDY_ATTRIBUTES: Record<string, Attribute<QueryStudyRow>> = {
  StudyInstanceUID: { kind: 'uid', value: (r) => r.study_uid },
  StudyDate: { kind: 'date', value: (r) => r.study_date },
  StudyTime: { kind: 'time', value: (r) => r.study_time },
  AccessionNumber: text((r) => r.accession_number),
  PatientName: { kind: 'name', value: (r) => r.patient_name },
  PatientID: text((r) => r.patientid),
  PatientBirthDate: { kind: 'date', value: (r) => r.patient_birth_date },
  PatientSex: text((r) => r.patient_sex),
  PatientAge: text((r) => r.patient_age),
  StudyDescription: text((r) => r.study_description),
  ReferringPhysicianName: { kind: 'name', value: (r) => r.referring_physician },
  InstitutionName: text((r) => r.institution_name),
  ModalitiesInStudy: { kind: 'text', value: (r) => r.modality, multi: true },
  NumberOfStudyRelatedSeries: text((r) => number(r.series_count)),
  NumberOfStudyRelatedInstances: text((r) => number(r.image_count)),
};

export const SERIES_ATTRIBUTES: Record<string, Attribute<QuerySeriesRow>> = {
  StudyInstanceUID: { kind: 'uid', value: (r) => r.study_uid },
  SeriesInstanceUID: { kind: 'uid', value: (r) => r.series_uid },
  Modality: text((r) => r.modality),
  SeriesNumber: text((r) => number(r.series_number)),
  SeriesDescription: text((r) => r.series_description),
  BodyPartExamined: text((r) => r.body_part),
  NumberOfSeriesRelatedInstances: text((r) => number(r.image_count)),
};

export const INSTANCE_ATTRIBUTES: Record<string, Attribute<QueryInstanceRow>> = {
  StudyInstanceUID: { kind: 'uid', value: (r) => r.study_uid },
  SeriesInstanceUID: { kind: 'uid', value: (r) => r.series_uid },
  SOPInstanceUID: { kind: 'uid', value: (r) => r.sop_instance_uid },
  SOPClassUID: { kind: 'uid', value: (r) => r.sop_class_uid },
  InstanceNumber: text((r) => number(r.instance_number)),
  Rows: text((r) => number(r.rows)),
  Columns: text((r) => number(r.columns)),
  NumberOfFrames: text((r) => number(r.frames)),
};
