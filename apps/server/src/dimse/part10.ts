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
 * negotiated transfer syntax (deflated ones stay deflated, as Part 10 stores them).
 */
export function part10Header(meta: FileMeta): Buffer {
  const elements = Buffer.concat([
    element(0x0001, 'OB', Buffer.from([0x00, 0x01])),
    element(0x0002, 'UI', uidValue(meta.sopClassUid)),
    element(0x0003, 'UI', uidValue(meta.sopInstanceUid)),
    element(0x0010, 'UI', uidValue(meta.transferSyntaxUid)),
    element(0x0012, 'UI', uidValue(IMPLEMENTATION_CLASS_UID)),
    element(0x0013, 'SH', textValue(IMPLEMENTATION_VERSION_NAME)),
    ...(meta.sourceAeTitle ? [element(0x0016, 'AE', textValue(meta.sourceAeTitle))] : []),
  ]);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(elements.length);
  return Buffer.concat([
    Buffer.alloc(128),
    Buffer.from('DICM', 'latin1'),
    element(0x0000, 'UL', groupLength),
    elements,
  ]);
}

function element(elementNumber: number, vr: string, value: Buffer): Buffer {
  const long = vr === 'OB';
  const header = Buffer.alloc(long ? 12 : 8);
  header.writeUInt16LE(0x0002, 0);
  header.writeUInt16LE(elementNumber, 2);
  header.write(vr, 4, 'latin1');
  if (long) header.writeUInt32LE(value.length, 8);
  else header.writeUInt16LE(value.length, 6);
  return Buffer.concat([header, value]);
}

/** UIDs are padded to even length with a NUL; stray padding from the command set is removed first. */
function uidValue(uid: string): Buffer {
  const clean = uid.replace(/[\0 ]+$/, '');
  return Buffer.from(clean.length % 2 ? `${clean}\0` : clean, 'latin1');
}

function textValue(text: string): Buffer {
  const clean = text.trim();
  return Buffer.from(clean.length % 2 ? `${clean} ` : clean, 'latin1');
}
