import fs from 'node:fs';
import path from 'node:path';
import { buildInstance, MODALITIES } from '../../src/dicom/index.js';
import type { InstanceSpec } from '../../src/dicom/index.js';
import { Prng } from '../../src/dicom/prng.js';
import { deflated, deflateBomb, PYDICOM_DIR } from '../dicom/support.js';
import { mutateFile } from './mutate.js';

/**
 * Fuzz cases for the hardening tier (`test/fuzz/`): files mutated from the pydicom test files,
 * files from our own generator (valid, deflated, bombs, then mutated), and malformed PDUs. Every
 * case comes from `new Prng(seed + index)`, so a failing case is made again from its seed.
 */

/** pydicom's test files, small enough to send often (under 600 KB). */
export function pydicomCorpus(): { name: string; bytes: Buffer }[] {
  const dir = path.join(PYDICOM_DIR, 'test_files');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.dcm') && fs.statSync(path.join(dir, name)).size < 600 * 1024)
    .sort()
    .map((name) => ({ name, bytes: fs.readFileSync(path.join(dir, name)) }));
}

const TEXT = [
  '',
  'DOE^JANE',
  'MÜLLER^JÖRG',
  '山田^太郎',
  'x'.repeat(64),
  '\\\\^^==',
  '\u0000\u001b$B',
  '../../etc',
];

function randomSpec(prng: Prng, n: number): InstanceSpec {
  const uid = `2.25.${prng.int(1, 2 ** 30)}${n}`;
  return {
    patientName: prng.pick(TEXT),
    patientId: `FUZZ${prng.int(0, 999)}`,
    patientSex: prng.pick(['M', 'F', 'O', '']),
    patientBirthDate: prng.pick(['19700101', '', '2099', 'abcdefgh']),
    studyInstanceUid: `${uid}.1`,
    studyDate: prng.pick(['20240101', '', '1']),
    studyTime: '101010',
    studyDescription: prng.pick(TEXT),
    accessionNumber: `A${prng.int(0, 99999)}`,
    referringPhysician: prng.pick(TEXT),
    institutionName: prng.pick(TEXT),
    seriesInstanceUid: `${uid}.1.1`,
    seriesNumber: prng.int(0, 3),
    seriesDescription: prng.pick(TEXT),
    modality: prng.pick(MODALITIES),
    bodyPart: 'CHEST',
    sopInstanceUid: `${uid}.1.1.${prng.int(1, 9)}`,
    instanceNumber: prng.int(0, 5),
    rows: prng.int(1, 48),
    columns: prng.int(1, 48),
  };
}

export interface FuzzFile {
  /** How the case was made, for the failure message. */
  label: string;
  bytes: Buffer;
}

/** One file: a mutated pydicom file, or a generated one (plain, deflated or a small bomb), maybe mutated. */
export function fuzzFile(corpus: { name: string; bytes: Buffer }[], seed: number): FuzzFile {
  const prng = new Prng(seed);
  if (prng.next() < 0.55) {
    const source = prng.pick(corpus);
    return { label: `pydicom ${source.name} mutated`, bytes: mutateFile(source.bytes, prng) };
  }
  const instance = buildInstance(randomSpec(prng, seed));
  const kind = prng.pick(['plain', 'deflated', 'bomb'] as const);
  const base =
    kind === 'plain'
      ? Buffer.from(instance)
      : kind === 'deflated'
        ? Buffer.from(deflated(instance))
        : Buffer.from(deflateBomb(instance, 4 * 1024 * 1024 * prng.int(1, 12)));
  const mutate = prng.next() < 0.6;
  return {
    label: `generated ${kind}${mutate ? ' mutated' : ''}`,
    bytes: mutate ? mutateFile(base, prng) : base,
  };
}

/** A malformed byte stream for the DICOM listener: a mutated association request, or noise. */
export function fuzzPdu(seed: number): { label: string; bytes: Buffer } {
  const prng = new Prng(seed);
  const request = associateRequest();
  switch (prng.int(0, 4)) {
    case 0:
      return { label: 'mutated A-ASSOCIATE-RQ', bytes: mutateFile(request, prng) };
    case 1: {
      // A PDU header announcing far more than follows.
      const head = Buffer.alloc(6);
      head[0] = prng.pick([0x01, 0x04, 0x05, 0x07, 0x09, 0xff]);
      head.writeUInt32BE(prng.pick([0xffffffff, 0x7fffffff, 1 << 24, 0]), 2);
      return { label: 'huge PDU length', bytes: head };
    }
    case 2:
      return {
        label: 'random bytes',
        bytes: Buffer.from(Array.from({ length: prng.int(1, 4096) }, () => prng.int(0, 255))),
      };
    case 3: {
      // A valid request followed by a P-DATA-TF whose PDV lengths do not add up.
      const pdv = Buffer.alloc(12);
      pdv.writeUInt32BE(prng.pick([0, 1, 0xffffffff, 5000]), 0);
      pdv[4] = prng.int(0, 255);
      pdv[5] = prng.int(0, 3);
      const head = Buffer.from([0x04, 0, 0, 0, 0, 0]);
      head.writeUInt32BE(pdv.length, 2);
      return { label: 'association then bad PDV', bytes: Buffer.concat([request, head, pdv]) };
    }
    default:
      return {
        label: 'truncated A-ASSOCIATE-RQ',
        bytes: request.subarray(0, prng.int(1, request.length - 1)),
      };
  }
}

/** An A-ASSOCIATE-RQ from DEMO_GATEWAY to INBOX proposing CT Image Storage in Explicit VR Little Endian. */
function associateRequest(): Buffer {
  const item = (type: number, value: Buffer) => {
    const head = Buffer.alloc(4);
    head[0] = type;
    head.writeUInt16BE(value.length, 2);
    return Buffer.concat([head, value]);
  };
  const fixed = Buffer.alloc(68);
  fixed.writeUInt16BE(1, 0);
  fixed.write('INBOX'.padEnd(16), 4, 'latin1');
  fixed.write('DEMO_GATEWAY'.padEnd(16), 20, 'latin1');
  const maxPdu = Buffer.alloc(4);
  maxPdu.writeUInt32BE(65536);
  const body = Buffer.concat([
    fixed,
    item(0x10, Buffer.from('1.2.840.10008.3.1.1.1')),
    item(
      0x20,
      Buffer.concat([
        Buffer.from([1, 0, 0, 0]),
        item(0x30, Buffer.from('1.2.840.10008.5.1.4.1.1.2')),
        item(0x40, Buffer.from('1.2.840.10008.1.2.1')),
      ]),
    ),
    item(0x50, Buffer.concat([item(0x51, maxPdu), item(0x52, Buffer.from('1.2.3.4'))])),
  ]);
  const head = Buffer.alloc(6);
  head[0] = 0x01;
  head.writeUInt32BE(body.length, 2);
  return Buffer.concat([head, body]);
}
