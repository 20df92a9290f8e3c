import { buildInstance, newUid, type InstanceSpec } from '../../src/dicom/index.js';

/**
 * Instance `n` of a small CT series (16×16 pixels) of `studyUid`, for tests that send many
 * instances into one series; `label` names the patient and the study description, `overrides`
 * changes any other attribute.
 */
export function seriesInstanceSpec(
  label: string,
  studyUid: string,
  seriesUid: string,
  n: number,
  overrides: Partial<InstanceSpec> = {},
): InstanceSpec {
  return {
    patientName: label.toUpperCase().replace(/ /g, '^'),
    patientId: `${label.toUpperCase().replace(/ /g, '-')}-1`,
    patientSex: 'O',
    patientBirthDate: '19700101',
    studyInstanceUid: studyUid,
    studyDate: '20260101',
    studyTime: '120000',
    studyDescription: label,
    accessionNumber: '',
    referringPhysician: '',
    institutionName: 'Test',
    seriesDescription: 'series',
    modality: 'CT',
    bodyPart: 'HEAD',
    seriesInstanceUid: seriesUid,
    seriesNumber: 1,
    sopInstanceUid: newUid(),
    instanceNumber: n,
    rows: 16,
    columns: 16,
    ...overrides,
  };
}

/** The encoded instance of seriesInstanceSpec with no overrides. */
export function seriesInstance(label: string, studyUid: string, seriesUid: string, n: number): Buffer {
  return Buffer.from(buildInstance(seriesInstanceSpec(label, studyUid, seriesUid, n)));
}
