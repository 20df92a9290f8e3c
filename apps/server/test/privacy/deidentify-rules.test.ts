/**
 * The options and per-field rules of a de-identification profile, on one generated CT file whose
 * values are known: what each option keeps, cleans or changes (PS3.15 E.3), and each rule action.
 */
import dcmjs from 'dcmjs';
import { describe, expect, it } from 'vitest';
import { buildInstance } from '../../src/dicom/write.js';
import {
  DeidentificationError,
  deidentify,
  type DeidentificationProfile,
  type FieldRule,
} from '../../src/modules/privacy/index.js';
import { baseSpec } from '../dicom/support.js';

const SECRET = Buffer.from('rules-test-secret');
const source = buildInstance(
  baseSpec({ studyDescription: 'CT CHEST for DOE follow-up MRN0001', patientAge: '054Y' }),
);

function run(profile: Partial<DeidentificationProfile>, bytes: Uint8Array = source) {
  const result = deidentify({
    bytes,
    profile: { options: [], rules: [], ...profile },
    secret: SECRET,
    maxBytes: 1024 * 1024,
  });
  const buffer = result.bytes.buffer.slice(
    result.bytes.byteOffset,
    result.bytes.byteOffset + result.bytes.byteLength,
  );
  const dict = dcmjs.data.DicomMessage.readFile(buffer as ArrayBuffer).dict;
  const value = (tag: string) => {
    const first = dict[tag]?.Value?.[0];
    return typeof first === 'object' && first !== null
      ? (first as { Alphabetic?: string }).Alphabetic
      : first;
  };
  return { result, dict, value };
}

describe('de-identification options', () => {
  it('the Basic Profile removes descriptors, empties dates and remaps UIDs', () => {
    const { value, dict, result } = run({});
    expect(dict['00081030']).toBeUndefined(); // Study Description: X
    expect(dict['00080020']?.Value.join('')).toBe(''); // Study Date: Z, present and empty
    expect(dict['00080080']?.Value).toEqual(['ANONYMIZED']); // Institution Name: X/Z/D
    expect(dict['00101010']).toBeUndefined(); // Patient's Age: X
    expect(value('0020000D')).not.toBe('2.25.1001');
    expect(value('0020000D')).toMatch(/^2\.25\.\d+$/);
    expect(value('00100020')).toBe(result.patientId);
    expect(value('00100010')).toMatch(/^ANONYMOUS\^[0-9A-F]{12}$/);
    expect(value('00280303')).toBe('REMOVED');
    expect(result.dateShiftDays).toBeNull();
  });

  it('Clean Descriptors keeps the description without the identifying values in it', () => {
    const { value } = run({ options: ['cleanDescriptors'] });
    expect(value('00081030')).toBe('CT CHEST for * follow-up *');
    expect(value('0008103E')).toBe('AXIAL 2.5MM');
  });

  it('Retain UIDs keeps every UID; Retain Patient Characteristics keeps sex and age', () => {
    const { value } = run({ options: ['retainUids', 'retainPatientCharacteristics'] });
    expect(value('0020000D')).toBe('2.25.1001');
    expect(value('00080018')).toBe('2.25.1001.1.1');
    expect(value('00100040')).toBe('M');
    expect(value('00101010')).toBe('054Y');
  });

  it('Retain Longitudinal Temporal Information moves dates back by the patient’s offset, keeps times', () => {
    const { value, result } = run({ options: ['retainLongitudinalModifiedDates'] });
    const days = result.dateShiftDays!;
    expect(days).toBeGreaterThan(0);
    const expected = new Date(Date.UTC(2024, 2, 10) - days * 86_400_000)
      .toISOString()
      .slice(0, 10)
      .replace(/-/g, '');
    expect(value('00080020')).toBe(expected);
    expect(value('00080030')).toBe('093015');
    expect(value('00280303')).toBe('MODIFIED');
    // Another exam of the same patient moves by the same number of days.
    const other = buildInstance(baseSpec({ studyInstanceUid: '2.25.2002', studyDate: '20250101' }));
    expect(run({ options: ['retainLongitudinalModifiedDates'] }, other).result.dateShiftDays).toBe(days);
  });
});

describe('per-field rules', () => {
  const rules = (...list: FieldRule[]) => ({ rules: list });

  it('replace, empty, remove and keep override the profile for their tag', () => {
    const { value, dict } = run(
      rules(
        { tag: '00080080', action: 'replace', value: 'TEACHING HOSPITAL' },
        { tag: '00080060', action: 'empty' },
        { tag: '00180015', action: 'remove' },
        { tag: '00081030', action: 'keep' },
      ),
    );
    expect(value('00080080')).toBe('TEACHING HOSPITAL');
    expect(dict['00080060']?.Value.join('')).toBe('');
    expect(dict['00180015']).toBeUndefined();
    expect(value('00081030')).toBe('CT CHEST for DOE follow-up MRN0001');
  });

  it('a regex rewrite runs on RE2 over the value', () => {
    const { value } = run(
      rules({ tag: '0008103E', action: 'rewrite', pattern: '(\\d+(\\.\\d+)?)MM', replacement: '$1 mm' }),
    );
    expect(value('0008103E')).toBe('AXIAL 2.5 mm');
  });

  it('a pattern only a backtracking engine accepts is refused, the source untouched', () => {
    const copy = Buffer.from(source);
    expect(() =>
      run(rules({ tag: '0008103E', action: 'rewrite', pattern: '(a)\\1', replacement: '' })),
    ).toThrow();
    expect(Buffer.from(source).equals(copy)).toBe(true);
  });

  it('refuses a file larger than the bound and bytes that are not DICOM', () => {
    expect(() =>
      deidentify({ bytes: source, profile: { options: [], rules: [] }, secret: SECRET, maxBytes: 100 }),
    ).toThrow(DeidentificationError);
    const junk = new Uint8Array(300).fill(7);
    expect(() =>
      deidentify({ bytes: junk, profile: { options: [], rules: [] }, secret: SECRET, maxBytes: 1e6 }),
    ).toThrow(DeidentificationError);
  });
});
