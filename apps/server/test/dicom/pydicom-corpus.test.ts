/**
 * Parses Debian's pydicom sample files (real files from many vendors and toolkits, several deliberately
 * broken) and compares against dcmtk's dcmdump, an independent implementation:
 * - dcmdump fails on the file          → we must reject it as INVALID_DICOM;
 * - dcmdump finds all three UIDs at the top level → we must return exactly those UIDs;
 * - otherwise (UIDs absent or only nested) → we must reject it (TAG_NOT_FOUND or INVALID_DICOM).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DicomParseError } from '../../src/dicom/errors.js';
import { parseDicomHeader } from '../../src/dicom/parse.js';
import { dcmdump, dumpValue, hasTool, PYDICOM_DIR } from './support.js';

const TEST_FILES = join(PYDICOM_DIR, 'test_files');
const CHARSET_FILES = join(PYDICOM_DIR, 'charset_files');
const available = existsSync(TEST_FILES) && hasTool('dcmdump');

function isPart10(path: string): boolean {
  const bytes = readFileSync(path);
  return bytes.length >= 132 && bytes.subarray(128, 132).toString('latin1') === 'DICM';
}

function parseError(bytes: Uint8Array): DicomParseError | undefined {
  try {
    parseDicomHeader(bytes);
    return undefined;
  } catch (error) {
    if (error instanceof DicomParseError) return error;
    throw error; // anything but a DicomParseError is a bug: ingest would answer 500
  }
}

const files = available
  ? readdirSync(TEST_FILES)
      .filter((name) => name.endsWith('.dcm'))
      .sort()
  : [];
const part10 = files.filter((name) => isPart10(join(TEST_FILES, name)));

describe.skipIf(!available)('pydicom test files', () => {
  it('has the sample set this suite expects', () => {
    expect(part10.length).toBeGreaterThanOrEqual(50);
  });

  it.each(part10)('%s agrees with dcmdump', (name) => {
    const path = join(TEST_FILES, name);
    const bytes = readFileSync(path);
    const dump = dcmdump(path, '+L');
    const expected = {
      studyInstanceUid: dumpValue(dump.stdout, '0020,000d'),
      seriesInstanceUid: dumpValue(dump.stdout, '0020,000e'),
      sopInstanceUid: dumpValue(dump.stdout, '0008,0018'),
    };

    if (dump.status !== 0 || dump.errors.length > 0) {
      expect(parseError(bytes)?.code).toBe('INVALID_DICOM');
    } else if (expected.studyInstanceUid && expected.seriesInstanceUid && expected.sopInstanceUid) {
      const parsed = parseDicomHeader(bytes);
      expect(parsed).toMatchObject(expected);
      expect(parsed.byteLength).toBe(bytes.length);
    } else {
      expect(['TAG_NOT_FOUND', 'INVALID_DICOM']).toContain(parseError(bytes)?.code);
    }
  });

  it('rejects files without the Part-10 preamble, which dcmdump can still read', () => {
    const raw = files.filter((name) => !part10.includes(name));
    expect(raw).toContain('no_meta.dcm');
    for (const name of raw)
      expect(parseError(readFileSync(join(TEST_FILES, name)))?.code).toBe('INVALID_DICOM');
  });

  it.each([
    ['MR_small.dcm', '1.2.840.10008.1.2.1'],
    ['MR_small_implicit.dcm', '1.2.840.10008.1.2'],
    ['MR_small_bigendian.dcm', '1.2.840.10008.1.2.2'],
    ['MR_small_RLE.dcm', '1.2.840.10008.1.2.5'],
    ['JPEG2000.dcm', '1.2.840.10008.1.2.4.91'],
  ])('reads %s (transfer syntax %s) including numeric fields', (name, syntax) => {
    const parsed = parseDicomHeader(readFileSync(join(TEST_FILES, name)));
    expect(parsed.transferSyntaxUid).toBe(syntax);
    const dump = dcmdump(join(TEST_FILES, name), '+P', '0028,0010', '+P', '0028,0011', '+P', '0010,0010');
    expect(parsed.rows).toBe(Number(/\(0028,0010\) US (\d+)/.exec(dump.stdout)?.[1]));
    expect(parsed.columns).toBe(Number(/\(0028,0011\) US (\d+)/.exec(dump.stdout)?.[1]));
    expect(parsed.patientName).toBe(dumpValue(dump.stdout, '0010,0010'));
  });

  it('reads the deflated file (1.2.840.10008.1.2.1.99) by inflating it', () => {
    const parsed = parseDicomHeader(readFileSync(join(TEST_FILES, 'image_dfl.dcm')));
    expect(parsed.transferSyntaxUid).toBe('1.2.840.10008.1.2.1.99');
    expect(parsed.sopInstanceUid).toBe('1.3.6.1.4.1.5962.1.1.0.0.0.977067309.6001.0');
    expect(parsed.rows).toBe(512);
  });

  it('reads the multi-frame count', () => {
    expect(parseDicomHeader(readFileSync(join(TEST_FILES, 'rtdose.dcm'))).numberOfFrames).toBe(15);
    expect(parseDicomHeader(readFileSync(join(TEST_FILES, 'test-SR.dcm'))).numberOfFrames).toBeNull();
  });

  it.each(['MR_truncated.dcm', 'rtplan_truncated.dcm'])('rejects the truncated sample %s', (name) => {
    expect(parseError(readFileSync(join(TEST_FILES, name)))?.code).toBe('INVALID_DICOM');
  });
});

describe.skipIf(!available || !existsSync(CHARSET_FILES))('character sets', () => {
  // Single-byte ISO 8859 sets, UTF-8 and GB18030; dcmdump +U8 converts the value to UTF-8 for comparison.
  it.each(['chrArab', 'chrFren', 'chrGerm', 'chrGreek', 'chrHbrw', 'chrRuss', 'chrX1', 'chrX2'])(
    '%s.dcm patient name matches dcmdump',
    (name) => {
      const path = join(CHARSET_FILES, `${name}.dcm`);
      const expected = dumpValue(dcmdump(path, '+U8', '+P', '0010,0010').stdout, '0010,0010');
      expect(expected).toBeTruthy();
      expect(parseDicomHeader(readFileSync(path)).patientName).toBe(expected);
    },
  );
});
