import { buildInstance, newUid } from '../../src/dicom/index.js';

/**
 * A 16×16 CT instance of a study and series of its own (new UIDs each call), for tests that need
 * some instance to store rather than a particular one.
 */
export function tinyInstance(who: {
  patientName: string;
  patientId: string;
  studyDescription: string;
}): Buffer {
  return Buffer.from(
    buildInstance({
      ...who,
      patientSex: 'O',
      patientBirthDate: '19700101',
      studyInstanceUid: newUid(),
      studyDate: '20260101',
      studyTime: '120000',
      accessionNumber: '',
      referringPhysician: '',
      institutionName: 'Test',
      seriesDescription: 'one',
      modality: 'CT',
      bodyPart: 'HEAD',
      seriesInstanceUid: newUid(),
      seriesNumber: 1,
      sopInstanceUid: newUid(),
      instanceNumber: 1,
      rows: 16,
      columns: 16,
    }),
  );
}
