import { execFileSync } from 'node:child_process';
import { randomFillSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { blobSource } from './byte-source';
import { FIRST_READ_BYTES, HEADER_BYTES, parseDicomHeader, readDicomHeader } from './dicom-header';
import { buildTestDicom } from './test-dicom';

const SAMPLES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const sample = (name: string) => new Blob([readFileSync(path.join(SAMPLES, name))]);

/** `bytes` rewritten by dcmtk's dcmconv as Deflated Explicit VR Little Endian. */
function deflateWithDcmconv(bytes: Uint8Array): Uint8Array {
  const dir = mkdtempSync(path.join(tmpdir(), 'imaging-inbox-dfl-'));
  try {
    writeFileSync(path.join(dir, 'in.dcm'), bytes);
    execFileSync('dcmconv', ['+td', 'in.dcm', 'out.dcm'], { cwd: dir, stdio: 'pipe' });
    return new Uint8Array(readFileSync(path.join(dir, 'out.dcm')));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

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

describe('readDicomHeader', () => {
  const mr = {
    studyUid: '1.3.6.1.4.1.5962.1.2.4.20040826185059.5457',
    sopInstanceUid: '1.3.6.1.4.1.5962.1.1.4.1.1.20040826185059.5457',
    patientName: 'CompressedSamples^MR1',
    modality: 'MR',
  };

  it('reads explicit big endian and implicit little endian files', async () => {
    expect(await readDicomHeader(blobSource(sample('MR_small_bigendian.dcm')))).toMatchObject(mr);
    expect(await readDicomHeader(blobSource(sample('MR_small_implicit.dcm')))).toMatchObject(mr);
  });

  it('inflates the dataset of a Deflated Explicit VR Little Endian file (pydicom sample)', async () => {
    const dfl = sample('image_dfl.dcm');
    // The plain parser cannot read it: the dataset after the meta group is deflated.
    expect(parseDicomHeader(new Uint8Array(await dfl.arrayBuffer()))).toBeNull();
    expect(await readDicomHeader(blobSource(dfl))).toMatchObject({
      studyUid: '1.3.6.1.4.1.5962.1.2.0.977067310.6001.0',
      sopInstanceUid: '1.3.6.1.4.1.5962.1.1.0.0.0.977067309.6001.0',
      modality: 'OT',
    });
  });

  it('reads a large deflated file from a prefix only: the file cut after 300 KB still answers', async () => {
    const plain = buildTestDicom(fields, 3 * 1024 * 1024);
    // Noise does not compress, so the deflated file stays about as large as the pixels.
    randomFillSync(plain, plain.length - 3 * 1024 * 1024);
    const deflated = deflateWithDcmconv(plain);
    expect(deflated.length).toBeGreaterThan(3 * 1024 * 1024);
    const cut = new Blob([deflated.slice(0, 300 * 1024)]);
    expect(await readDicomHeader(blobSource(cut))).toMatchObject({
      studyUid: '1.2.3.4',
      sopInstanceUid: '1.2.3.4.5.1',
      patientName: 'DOE^JANE',
      patientId: 'MRN42',
      studyDate: '20260115',
    });
  });

  it('reads on when the study UID lies past the first read, also when the first read cuts it', async () => {
    const withComment = (length: number) => {
      const before = fields.filter(([g]) => g < 0x0020);
      const after = fields.filter(([g]) => g >= 0x0020);
      return buildTestDicom([...before, [0x0010, 0x4000, 'LT', 'x'.repeat(length)], ...after]);
    };
    expect(await readDicomHeader(blobSource(new Blob([new Uint8Array(withComment(40_000))])))).toMatchObject({
      studyUid: '1.2.3.4',
      patientName: 'DOE^JANE',
    });
    // A comment length that puts the study UID's value across the end of the first read.
    const studyTag = [0x20, 0x00, 0x0d, 0x00, 0x55, 0x49];
    let cut: Uint8Array | null = null;
    for (let length = FIRST_READ_BYTES - 400; length < FIRST_READ_BYTES && !cut; length += 2) {
      const bytes = withComment(length);
      const at = Buffer.from(bytes).indexOf(Buffer.from(studyTag));
      if (at + 8 < FIRST_READ_BYTES && at + 8 + 8 > FIRST_READ_BYTES) cut = bytes;
    }
    expect(cut).not.toBeNull();
    expect(await readDicomHeader(blobSource(new Blob([new Uint8Array(cut!)])))).toMatchObject({
      studyUid: '1.2.3.4',
      sopInstanceUid: '1.2.3.4.5.1',
    });
  });

  it('answers null for non-DICOM bytes', async () => {
    expect(await readDicomHeader(blobSource(new Blob(['%PDF-1.7 hello'])))).toBeNull();
    expect(await readDicomHeader(blobSource(new Blob([])))).toBeNull();
  });
});
