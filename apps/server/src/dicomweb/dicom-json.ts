import type { StudyListed, StudyRow } from '../repositories/studies.repository.js';
import type { InstanceRow, SeriesRow } from '../repositories/dicomweb.repository.js';

/** One attribute in the DICOM JSON model (PS3.18 F.2). */
export interface JsonAttribute {
  vr: string;
  Value?: unknown[];
  BulkDataURI?: string;
  InlineBinary?: string;
}
export type DicomJson = Record<string, JsonAttribute>;

const str = (vr: string, value: string | null | undefined): JsonAttribute =>
  value ? { vr, Value: [value] } : { vr };
const num = (vr: string, value: number | null | undefined): JsonAttribute =>
  value === null || value === undefined ? { vr } : { vr, Value: [value] };
const pn = (value: string): JsonAttribute =>
  value ? { vr: 'PN', Value: [{ Alphabetic: value }] } : { vr: 'PN' };

export function studyAttributes(study: StudyListed, baseUrl: string): DicomJson {
  return {
    '00080020': str('DA', study.study_date),
    '00080030': str('TM', study.study_time),
    '00080050': str('SH', study.accession_number),
    '00080061': study.modality ? { vr: 'CS', Value: study.modality.split('\\') } : { vr: 'CS' },
    '00080090': pn(study.referring_physician),
    '00081030': str('LO', study.study_description),
    '00081190': str('UR', `${baseUrl}/studies/${study.study_uid}`),
    '00100010': pn(study.patient_name),
    '00100020': str('LO', study.patientid),
    '00100030': str('DA', study.patient_birth_date),
    '00100040': str('CS', study.patient_sex),
    '0020000D': str('UI', study.study_uid),
    '00201206': num('IS', study.series_count),
    '00201208': num('IS', study.image_count),
  };
}

export function seriesAttributes(study: StudyRow, series: SeriesRow, baseUrl: string): DicomJson {
  return {
    '00080060': str('CS', series.modality),
    '0008103E': str('LO', series.series_description),
    '00081190': str('UR', `${baseUrl}/studies/${study.study_uid}/series/${series.series_uid}`),
    '00180015': str('CS', series.body_part),
    '0020000D': str('UI', study.study_uid),
    '0020000E': str('UI', series.series_uid),
    '00200011': num('IS', series.series_number),
    '00201209': num('IS', series.image_count),
  };
}

export function instanceAttributes(
  study: StudyRow,
  instance: InstanceRow & { series_uid: string },
  baseUrl: string,
): DicomJson {
  return {
    '00080016': str('UI', instance.sop_class_uid),
    '00080018': str('UI', instance.sop_instance_uid),
    '00081190': str(
      'UR',
      `${baseUrl}/studies/${study.study_uid}/series/${instance.series_uid}/instances/${instance.sop_instance_uid}`,
    ),
    '0020000D': str('UI', study.study_uid),
    '0020000E': str('UI', instance.series_uid),
    '00200013': num('IS', instance.instance_number),
    '00280008': num('IS', instance.frames),
    '00280010': num('US', instance.rows),
    '00280011': num('US', instance.columns),
  };
}

/** QIDO `includefield`: keeps the default attributes, or all when `all` was asked. */
export function sortedByTag(attributes: DicomJson): DicomJson {
  return Object.fromEntries(Object.entries(attributes).sort(([a], [b]) => a.localeCompare(b)));
}
