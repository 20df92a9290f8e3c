import { describe, expect, it } from 'vitest';
import { HEADER_BYTES, parseDicomHeader } from './dicom-header';
import { buildTestDicom } from './test-dicom';

const fields: Array<[number, number, string, string]> = [
  [0x0008, 0x0018, 'UI', '1.2.3.4.5.1'],
  [0x0008, 0x0020, 'DA', '20260115'],
  [0x0008, 0x0050, 'SH', 'ACC1'],
  [0x0008, 0x0060, 'CS', 'CT'],
  [0x0008, 0x1030, 'LO', 'CT HEAD'],
  [0x0010, 0x0010, 'PN', 'DOE^JANE'],
  [0x0010, 0x0020, 'LO', 'MRN42'],
  [0x0010, 0x0030, 'DA', '19700101'],
  [0x0020, 0x000d, 'UI', '1.2.3.4'],
];

describe('parseDicomHeader', () => {
  it('reads the study fields and stops before pixel data, even when the slice cuts it', () => {
    const bytes = buildTestDicom(fields, HEADER_BYTES * 2);
    expect(parseDicomHeader(bytes.slice(0, HEADER_BYTES))).toEqual({
      studyUid: '1.2.3.4',
      sopInstanceUid: '1.2.3.4.5.1',
      patientName: 'DOE^JANE',
      patientId: 'MRN42',
      birthDate: '19700101',
      studyDate: '20260115',
      description: 'CT HEAD',
      accession: 'ACC1',
      modality: 'CT',
    });
  });

  it('answers null for non-DICOM bytes, a DICOMDIR and a file without UIDs', () => {
    expect(parseDicomHeader(new TextEncoder().encode('%PDF-1.7 hello'))).toBeNull();
    expect(
      parseDicomHeader(buildTestDicom([[0x0002, 0x0002, 'UI', '1.2.840.10008.1.3.10'], ...fields])),
    ).toBeNull();
    expect(parseDicomHeader(buildTestDicom([[0x0010, 0x0010, 'PN', 'DOE^JANE']]))).toBeNull();
  });
});
