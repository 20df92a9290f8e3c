import { describe, expect, it } from 'vitest';
import type { DicomHeader } from './dicom-header';
import { groupStudies, instancesOf, scanError, type ParsedFile } from './studies';

const header = (over: Partial<DicomHeader>): DicomHeader => ({
  studyUid: '1.1',
  sopInstanceUid: '1.1.1',
  patientName: 'DOE^JANE',
  patientId: 'MRN1',
  birthDate: '19700101',
  studyDate: '20260101',
  description: 'CT HEAD',
  accession: 'A1',
  modality: 'CT',
  ...over,
});

describe('groupStudies', () => {
  it('groups by study UID in order of appearance with the modality set, count and size', () => {
    const parsed: ParsedFile[] = [
      { index: 0, header: header({ sopInstanceUid: 'a' }) },
      {
        index: 1,
        header: header({ studyUid: '2.2', sopInstanceUid: 'b', patientName: 'ROE^RICK', modality: 'MR' }),
      },
      { index: 2, header: header({ sopInstanceUid: 'c', modality: 'SR', description: '' }) },
      { index: 3, header: header({ sopInstanceUid: 'd', modality: 'CT' }) },
    ];
    const studies = groupStudies(parsed, (i) => (i + 1) * 100);
    expect(studies).toHaveLength(2);
    expect(studies[0]).toMatchObject({
      studyUid: '1.1',
      patientName: 'DOE^JANE',
      patientId: 'MRN1',
      description: 'CT HEAD',
      modalities: ['CT', 'SR'],
      fileIndexes: [0, 2, 3],
      sopInstanceUids: ['a', 'c', 'd'],
      totalSize: 100 + 300 + 400,
    });
    expect(studies[1]).toMatchObject({
      studyUid: '2.2',
      patientName: 'ROE^RICK',
      fileIndexes: [1],
      totalSize: 200,
    });
  });

  it('counts a repeated SOP instance once and fills fields from the first file that has them', () => {
    const parsed: ParsedFile[] = [
      { index: 0, header: header({ sopInstanceUid: 'a', description: '' }) },
      { index: 1, header: header({ sopInstanceUid: 'a' }) },
      { index: 2, header: header({ sopInstanceUid: 'b', description: 'LATER' }) },
    ];
    const [study] = groupStudies(parsed, () => 10);
    expect(study).toMatchObject({ fileIndexes: [0, 2], totalSize: 20, description: 'LATER' });
  });
});

describe('scanError', () => {
  it('maps scans without studies to the spec messages', () => {
    expect(scanError({ fileCount: 0, parsed: [], unreadable: 0 }, 0)).toBe('uploadNoExams');
    expect(scanError({ fileCount: 3, parsed: [], unreadable: 3 }, 0)).toBe('uploadCannotLoad');
    expect(scanError({ fileCount: 3, parsed: [], unreadable: 1 }, 0)).toBe('uploadNoDicom');
    expect(
      scanError({ fileCount: 1, parsed: [{ index: 0, header: header({}) }], unreadable: 0 }, 1),
    ).toBeNull();
  });
});

describe('instancesOf', () => {
  it('gives each instance of the studies once, with its SOP Instance UID, skipping files read twice', () => {
    const parsed: ParsedFile[] = [
      { index: 0, header: header({ sopInstanceUid: 'a' }) },
      { index: 1, header: header({ studyUid: '2.2', sopInstanceUid: 'b' }) },
      // The same instance again (a copy in another folder): sent once.
      { index: 2, header: header({ sopInstanceUid: 'a' }) },
      { index: 3, header: header({ sopInstanceUid: 'c' }) },
    ];
    const files = ['f0', 'f1', 'f2', 'f3'].map((name) => new File([name], name));
    const sent = instancesOf(
      groupStudies(parsed, () => 1),
      files,
    );
    expect(sent.map((s) => [s.file.name, s.sopInstanceUid])).toEqual([
      ['f0', 'a'],
      ['f3', 'c'],
      ['f1', 'b'],
    ]);
  });
});
