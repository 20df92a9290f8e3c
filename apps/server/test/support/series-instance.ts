import { buildInstance, newUid } from '../../src/dicom/index.js';

/**
 * Instance `n` of a small CT series (16×16 pixels) of `studyUid`, for tests that send many
 * instances into one series; `label` names the patient and the study description.
 */
export function seriesInstance(label: string, studyUid: string, seriesUid: string, n: number): Buffer {
  return Buffer.from(
    buildInstance({
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
    }),
  );
}
