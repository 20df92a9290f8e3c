import { describe, expect, it } from 'vitest';
import { dicomAge, formatDA, formatTM } from '../../src/dicom/dates.js';
import { isValidUid, newUid, ORG_ROOT } from '../../src/dicom/uid.js';

describe('newUid', () => {
  it('makes valid, unique 2.25 UIDs', () => {
    const uids = Array.from({ length: 2000 }, () => newUid());
    for (const uid of uids) {
      expect(uid.startsWith(`${ORG_ROOT}.`)).toBe(true);
      expect(isValidUid(uid), uid).toBe(true);
      expect(uid.length).toBeLessThanOrEqual(44);
    }
    expect(new Set(uids).size).toBe(uids.length);
  });

  it('isValidUid rejects what DICOM forbids', () => {
    for (const bad of ['', '1', '1..2', '1.02', '1.2.', 'a.b', `1.${'2'.repeat(63)}`]) {
      expect(isValidUid(bad), bad).toBe(false);
    }
    expect(isValidUid('1.2.840.10008.1.2.1')).toBe(true);
    expect(isValidUid('2.25.0')).toBe(true);
  });
});

describe('DICOM dates', () => {
  it('formats DA and TM in UTC', () => {
    const at = new Date('2024-02-05T07:08:09Z');
    expect(formatDA(at)).toBe('20240205');
    expect(formatTM(at)).toBe('070809');
  });

  it.each([
    ['19700115', '20240310', '054Y'],
    ['19700311', '20240310', '053Y'], // the day before the birthday
    ['20220310', '20240310', '002Y'], // 24 months switches to years
    ['20231201', '20240310', '003M'],
    ['20240301', '20240310', '009D'],
    ['20250101', '20240310', ''], // born after the study
    ['', '20240310', ''],
  ])('dicomAge(%s, %s) = %s', (birth, at, expected) => {
    expect(dicomAge(birth, at)).toBe(expected);
  });
});
