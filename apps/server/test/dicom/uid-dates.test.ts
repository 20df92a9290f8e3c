import { describe, expect, it } from 'vitest';
import { dicomAge, formatDA, formatTM } from '../../src/dicom/dates.js';
import { randomBytes } from 'node:crypto';
import { derivedUid, isOurUid, isValidUid, newUid, ORG_ROOT } from '../../src/dicom/uid.js';

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

describe('UIDs of ours (decision 0058)', () => {
  const foreign = () => `2.25.${BigInt(`0x${randomBytes(16).toString('hex')}`).toString(10)}`;

  it("marks every UID the server mints, and no other system's 2.25 UID", () => {
    const ours = [...Array.from({ length: 500 }, () => newUid()), derivedUid('a', 'b')];
    for (const uid of ours) expect(isOurUid(uid), uid).toBe(true);
    const others = Array.from({ length: 500 }, foreign);
    expect(others.filter((uid) => isOurUid(uid))).toEqual([]);
    for (const uid of ['', '2.25', '2.25.', '1.2.840.10008.1.2.1', '2.25.01', `2.25.${'9'.repeat(39)}`])
      expect(isOurUid(uid), uid).toBe(false);
    // A mark is of its own identity: one digit changed is no longer ours.
    const uid = newUid();
    const last = uid.at(-1) === '1' ? '2' : '1';
    expect(isOurUid(uid.slice(0, -1) + last)).toBe(false);
    // Any input is judged by its length first, never by big arithmetic on it.
    expect(isOurUid(`2.25.${'1'.repeat(100_000)}`)).toBe(false);
  });

  it('derives the same UID from the same parts and another from other parts', () => {
    expect(derivedUid('wrap-instance', '2.25.1', 'abc')).toBe(derivedUid('wrap-instance', '2.25.1', 'abc'));
    const variants = [
      derivedUid('wrap-instance', '2.25.1', 'abc'),
      derivedUid('wrap-instance', '2.25.2', 'abc'),
      derivedUid('wrap-instance', '2.25.1', 'abd'),
      derivedUid('wrap-series', '2.25.1', 'abc'),
      // Parts are kept apart: ('ab', 'c') is not ('a', 'bc').
      derivedUid('wrap-instance', '2.25.1a', 'bc'),
    ];
    expect(new Set(variants).size).toBe(variants.length);
    for (const uid of variants) expect(isValidUid(uid) && uid.length <= 44, uid).toBe(true);
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
