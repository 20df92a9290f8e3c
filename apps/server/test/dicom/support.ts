/**
 * Shared helpers for the DICOM tests: a baseline instance spec, temp files, and dcmtk's dcmdump as an
 * independent oracle (a second, mature DICOM implementation disagreeing with ours is a real bug).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as zlibConstants, deflateRawSync } from 'node:zlib';
import type { InstanceSpec } from '../../src/dicom/write.js';

export const PYDICOM_DIR = '/usr/lib/python3/dist-packages/pydicom/data';

export function hasTool(name: string): boolean {
  return spawnSync('which', [name]).status === 0;
}

export function baseSpec(overrides: Partial<InstanceSpec> = {}): InstanceSpec {
  return {
    patientName: 'DOE^JOHN',
    patientId: 'MRN0001',
    patientSex: 'M',
    patientBirthDate: '19700115',
    studyInstanceUid: '2.25.1001',
    studyDate: '20240310',
    studyTime: '093015',
    studyDescription: 'CT CHEST W/O CONTRAST',
    accessionNumber: 'ACC0001',
    referringPhysician: 'HOUSE^GREGORY',
    institutionName: 'GENERAL HOSPITAL',
    seriesInstanceUid: '2.25.1001.1',
    seriesNumber: 1,
    seriesDescription: 'AXIAL 2.5MM',
    modality: 'CT',
    bodyPart: 'CHEST',
    sopInstanceUid: '2.25.1001.1.1',
    instanceNumber: 1,
    ...overrides,
  };
}

/** A temp directory removed by the returned cleanup. */
export function tempDir(): {
  dir: string;
  write: (name: string, bytes: Uint8Array) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), 'dicom-test-'));
  return {
    dir,
    write: (name, bytes) => {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface DcmdumpResult {
  status: number | null;
  stdout: string;
  /** Lines dcmtk marks as errors (`E: …`). */
  errors: string[];
}

export function dcmdump(path: string, ...args: string[]): DcmdumpResult {
  const result = spawnSync('dcmdump', [...args, path], { encoding: 'utf8' });
  const all = `${result.stdout}\n${result.stderr}`;
  return {
    status: result.status,
    stdout: result.stdout,
    errors: all.split('\n').filter((line) => line.startsWith('E:')),
  };
}

/**
 * Value of a top-level attribute in dcmdump's default output (nested items are indented, so `^` anchors
 * to the top level), or undefined. `tag` is `gggg,eeee` in lower case. Values dcmtk shows as VR UN (hex
 * bytes, e.g. UIDs written with an unknown VR) are decoded; call dcmdump with `+L` so they are not cut.
 */
export function dumpValue(dump: string, tag: string): string | undefined {
  const text = new RegExp(`^\\(${tag}\\) \\w\\w \\[(.*?)\\]\\s+#`, 'm').exec(dump);
  if (text) return text[1];
  const hex = new RegExp(`^\\(${tag}\\) UN ([0-9a-f\\\\]+)\\s+#`, 'm').exec(dump);
  if (!hex?.[1]) return undefined;
  const bytes = hex[1].split('\\').map((byte) => Number.parseInt(byte, 16));
  return Buffer.from(bytes)
    .toString('latin1')
    .replace(/[\s\0]+$/, '');
}

/** dcmftest prints `yes: <path>` for a valid Part-10 file and `no: <path>` (exit 1) otherwise. */
export function dcmftest(path: string): string {
  const result = spawnSync('dcmftest', [path], { encoding: 'utf8' });
  return result.stdout;
}

/** A valid file re-encoded as Deflated Explicit VR Little Endian (dataset after the meta header deflated). */
export function deflated(bytes: Uint8Array): Uint8Array {
  const { meta, datasetStart } = deflatedMeta(bytes);
  return Buffer.concat([meta, deflateRawSync(bytes.subarray(datasetStart))]);
}

/** The meta header of an Explicit VR Little Endian file rewritten to name the deflated syntax. */
function deflatedMeta(bytes: Uint8Array): { meta: Buffer; datasetStart: number } {
  const metaLength = new DataView(bytes.buffer, bytes.byteOffset).getUint32(140, true); // (0002,0000) value
  const datasetStart = 144 + metaLength;
  const oldSyntax = Buffer.from('1.2.840.10008.1.2.1\0'); // 20 bytes, even
  const newSyntax = Buffer.from('1.2.840.10008.1.2.1.99'); // 22 bytes: header grows by 2
  const meta = Buffer.from(bytes.subarray(0, datasetStart));
  const at = meta.indexOf(oldSyntax);
  if (at < 0) throw new Error('not Explicit VR Little Endian');
  meta.writeUInt16LE(22, at - 2); // element length field precedes the value
  const patched = Buffer.concat([meta.subarray(0, at), newSyntax, meta.subarray(at + oldSyntax.length)]);
  patched.writeUInt32LE(metaLength + 2, 140);
  return { meta: patched, datasetStart };
}

/**
 * A decompression bomb: a valid instance (Explicit VR Little Endian, 2x2 pixels) re-encoded as
 * Deflated Explicit VR Little Endian whose Pixel Data claims `inflatedBytes` of zeros. Made without
 * ever holding them: one self-contained deflate block of 4 MiB of zeros (ended by a full flush, so
 * it depends on nothing before it) is repeated; about 4 KB per 4 MiB.
 */
export function deflateBomb(instance: Uint8Array, inflatedBytes: number): Uint8Array {
  const BLOCK = 4 * 1024 * 1024;
  if (inflatedBytes % BLOCK !== 0) throw new Error('inflatedBytes: a multiple of 4 MiB');
  const file = Buffer.from(instance);
  const { meta, datasetStart } = deflatedMeta(file);
  const pixelTag = Buffer.from([0xe0, 0x7f, 0x10, 0x00]);
  const pixelAt = file.lastIndexOf(pixelTag);
  if (pixelAt < datasetStart) throw new Error('no Pixel Data');
  // (7FE0,0010) OW, 2 reserved bytes, 4-byte length: the header ends 12 bytes after the tag.
  const head = Buffer.from(file.subarray(datasetStart, pixelAt + 12));
  head.writeUInt32LE(inflatedBytes, head.length - 4);
  const flush = { finishFlush: zlibConstants.Z_FULL_FLUSH };
  const zeros = deflateRawSync(Buffer.alloc(BLOCK), flush);
  return Buffer.concat([
    meta,
    deflateRawSync(head, flush),
    ...Array.from({ length: inflatedBytes / BLOCK }, () => zeros),
    deflateRawSync(Buffer.alloc(0)),
  ]);
}
