/**
 * Malformed input must end in a DicomParseError with a stable code — never a crash, never a "successful"
 * parse of a partial file (the ingest pipeline would then store and index a broken instance).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import dcmjs from 'dcmjs';
import { describe, expect, it } from 'vitest';
import { DicomParseError, type DicomParseErrorCode } from '../../src/dicom/errors.js';
import { parseDicomHeader } from '../../src/dicom/parse.js';
import { Prng } from '../../src/dicom/prng.js';
import { buildInstance } from '../../src/dicom/write.js';
import { baseSpec, deflated, PYDICOM_DIR } from './support.js';

function expectParseError(bytes: Uint8Array, code: DicomParseErrorCode, detail?: string): void {
  let caught: unknown;
  try {
    parseDicomHeader(bytes);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DicomParseError);
  const error = caught as DicomParseError;
  expect(error.code).toBe(code);
  expect(error.name).toBe('DicomParseError');
  if (detail !== undefined) expect(error.detail).toBe(detail);
}

/** Re-writes a generated file with dcmjs after editing its dataset (keyword → value, undefined deletes). */
function withDataset(edit: Record<string, unknown>): Uint8Array {
  const dict = dcmjs.data.DicomMessage.readFile(buildInstance(baseSpec()).slice().buffer);
  const data = dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict.dict);
  for (const [keyword, value] of Object.entries(edit)) {
    if (value === undefined) delete data[keyword];
    else data[keyword] = value;
  }
  dict.dict = dcmjs.data.DicomMetaDictionary.denaturalizeDataset(data);
  return new Uint8Array(dict.write());
}

describe('empty and non-DICOM input', () => {
  it('rejects 0 bytes as FILE_CONTENT_EMPTY', () => {
    expectParseError(new Uint8Array(0), 'FILE_CONTENT_EMPTY');
  });

  it('rejects random bytes as INVALID_DICOM', () => {
    const random = new Prng(99);
    for (const size of [1, 131, 132, 4096]) {
      const bytes = new Uint8Array(size).map(() => random.int(0, 255));
      expectParseError(bytes, 'INVALID_DICOM');
    }
  });

  it('rejects a text file as INVALID_DICOM', () => {
    expectParseError(Buffer.from('Patient: DOE^JOHN\n'.repeat(50)), 'INVALID_DICOM');
  });

  it('rejects a DICM marker followed by garbage as INVALID_DICOM', () => {
    const bytes = new Uint8Array(400).fill(0x41);
    bytes.set(Buffer.from('DICM'), 128);
    expectParseError(bytes, 'INVALID_DICOM');
  });
});

describe('truncated files', () => {
  const file = buildInstance(baseSpec());

  it('accepts the intact file (the cuts below are what breaks it)', () => {
    expect(parseDicomHeader(file).sopInstanceUid).toBe('2.25.1001.1.1');
  });

  it.each([
    ['in half', Math.floor(file.length / 2)],
    ['by one byte', file.length - 1],
    ['inside the pixel data element header', file.length - 64 * 64 * 2 - 6],
    ['inside the meta header', 150],
    ['right after the preamble', 132],
  ])('rejects the file cut %s as INVALID_DICOM', (_label, length) => {
    expectParseError(file.subarray(0, length), 'INVALID_DICOM');
  });

  it('rejects a file cut in the middle of a header element value', () => {
    // Cut inside the Study Description value, well before Pixel Data.
    const at = Buffer.from(file).indexOf('CT CHEST W/O CONTRAST');
    expectParseError(file.subarray(0, at + 5), 'INVALID_DICOM');
  });

  const samples = join(PYDICOM_DIR, 'test_files');
  it.skipIf(!existsSync(samples)).each([
    ['implicit VR', 'MR_small_implicit.dcm'],
    ['big endian', 'MR_small_bigendian.dcm'],
    ['encapsulated (JPEG 2000) pixel data', 'JPEG2000.dcm'],
    ['RLE pixel data', 'MR_small_RLE.dcm'],
  ])('rejects a %s file missing its last 10 bytes', (_label, name) => {
    const bytes = readFileSync(join(samples, name));
    expect(parseDicomHeader(bytes).rows).toBeGreaterThan(0);
    expectParseError(bytes.subarray(0, bytes.length - 10), 'INVALID_DICOM');
  });

  it('reads a deflated file and rejects it when truncated', () => {
    const bytes = deflated(file);
    const parsed = parseDicomHeader(bytes);
    expect(parsed.transferSyntaxUid).toBe('1.2.840.10008.1.2.1.99');
    expect(parsed.sopInstanceUid).toBe('2.25.1001.1.1');
    expect(parsed.byteLength).toBe(bytes.length);
    expectParseError(bytes.subarray(0, bytes.length - 20), 'INVALID_DICOM');
  });
});

describe('missing identifiers', () => {
  it.each(['SOPInstanceUID', 'StudyInstanceUID', 'SeriesInstanceUID'])(
    'rejects a file without %s as TAG_NOT_FOUND naming the tag',
    (keyword) => {
      expectParseError(withDataset({ [keyword]: undefined }), 'TAG_NOT_FOUND', keyword);
    },
  );

  it('treats an empty SOPInstanceUID like a missing one', () => {
    expectParseError(withDataset({ SOPInstanceUID: '' }), 'TAG_NOT_FOUND', 'SOPInstanceUID');
  });

  it('still parses when optional attributes are missing, returning empty values', () => {
    const parsed = parseDicomHeader(
      withDataset({ PatientName: undefined, PatientBirthDate: 'unknown', SeriesNumber: undefined }),
    );
    expect(parsed.patientName).toBe('');
    expect(parsed.patientBirthDate).toBe('');
    expect(parsed.seriesNumber).toBeNull();
    expect(parsed.sopInstanceUid).toBe('2.25.1001.1.1');
  });
});
