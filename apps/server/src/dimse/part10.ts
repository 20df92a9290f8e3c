import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from '../dicom/write.js';

export interface FileMeta {
  sopClassUid: string;
  sopInstanceUid: string;
  transferSyntaxUid: string;
  /** The calling AE title the instance came from (0002,0016). */
  sourceAeTitle: string;
}

/**
 * The 128-byte preamble, `DICM` and the File Meta Information group (explicit VR little endian) that
 * turn a dataset received over DIMSE into a Part-10 file. The dataset bytes follow unchanged, in the
 * negotiated transfer syntax (deflated ones stay deflated, as Part 10 stores them). Written into one
 * buffer: made for every received instance, a buffer per element and their joins showed in the
 * C-STORE profile.
 */
export function part10Header(meta: FileMeta): Buffer {
  const elements: [number, string, string][] = [
    [0x0002, 'UI', uidValue(meta.sopClassUid)],
    [0x0003, 'UI', uidValue(meta.sopInstanceUid)],
    [0x0010, 'UI', uidValue(meta.transferSyntaxUid)],
    [0x0012, 'UI', uidValue(IMPLEMENTATION_CLASS_UID)],
    [0x0013, 'SH', textValue(IMPLEMENTATION_VERSION_NAME)],
  ];
  if (meta.sourceAeTitle) elements.push([0x0016, 'AE', textValue(meta.sourceAeTitle)]);
  // (0002,0001) File Meta Information Version: OB, a 12-byte header and two bytes.
  let groupLength = 12 + 2;
  for (const [, , value] of elements) groupLength += 8 + Buffer.byteLength(value, 'latin1');
  // Zero-filled: the preamble is 128 zero bytes.
  const header = Buffer.alloc(PREAMBLE + 4 + 12 + groupLength);
  let at = PREAMBLE;
  at += header.write('DICM', at, 'latin1');
  at = elementHeader(header, at, 0x0000, 'UL', 4);
  at = header.writeUInt32LE(groupLength, at);
  at = elementHeader(header, at, 0x0001, 'OB', 2);
  header[at + 1] = 0x01;
  at += 2;
  for (const [elementNumber, vr, value] of elements) {
    at = elementHeader(header, at, elementNumber, vr, Buffer.byteLength(value, 'latin1'));
    at += header.write(value, at, 'latin1');
  }
  return header;
}

const PREAMBLE = 128;

/** Writes a group 0002 element's header at `at` (OB: the long form); answers where its value goes. */
function elementHeader(
  buffer: Buffer,
  at: number,
  elementNumber: number,
  vr: string,
  length: number,
): number {
  buffer.writeUInt16LE(0x0002, at);
  buffer.writeUInt16LE(elementNumber, at + 2);
  buffer.write(vr, at + 4, 'latin1');
  if (vr !== 'OB') return buffer.writeUInt16LE(length, at + 6);
  buffer.writeUInt32LE(length, at + 8);
  return at + 12;
}

/** UIDs are padded to even length with a NUL; stray padding from the command set is removed first. */
function uidValue(uid: string): string {
  const clean = uid.replace(/[\0 ]+$/, '');
  return clean.length % 2 ? `${clean}\0` : clean;
}

function textValue(text: string): string {
  const clean = text.trim();
  return clean.length % 2 ? `${clean} ` : clean;
}
