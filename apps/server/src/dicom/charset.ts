/**
 * Decoding of text values by Specific Character Set (0008,0005).
 *
 * dicom-parser reads every string byte-by-byte as Latin-1, which garbles UTF-8 names such as
 * `MÜLLER^JÖRG`. Patient names are what users search and read, so text VRs are decoded here.
 * Only the single-byte ISO 8859 sets, UTF-8 and GB18030/GBK are mapped; ISO 2022 code extensions
 * (escape sequences, e.g. Japanese `\ISO 2022 IR 87`) fall back to the first set named, which keeps
 * the ASCII part readable rather than failing the whole file.
 */
import { TextDecoder } from 'node:util';

// DICOM Defined Terms (PS3.3 C.12.1.1.2) → WHATWG encoding labels understood by TextDecoder.
const ENCODINGS: Record<string, string> = {
  '': 'latin1', // default repertoire is ASCII; latin1 is a superset that never throws
  ISO_IR_6: 'latin1',
  ISO_IR_100: 'latin1',
  ISO_IR_101: 'iso-8859-2',
  ISO_IR_109: 'iso-8859-3',
  ISO_IR_110: 'iso-8859-4',
  ISO_IR_144: 'iso-8859-5',
  ISO_IR_127: 'iso-8859-6',
  ISO_IR_126: 'iso-8859-7',
  ISO_IR_138: 'iso-8859-8',
  ISO_IR_148: 'iso-8859-9',
  ISO_IR_166: 'windows-874',
  ISO_IR_192: 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
};

const decoders = new Map<string, TextDecoder>();

/** A decoder for the first term of a (possibly multi-valued) Specific Character Set value. */
export function decoderFor(specificCharacterSet: string): TextDecoder {
  const first = (specificCharacterSet.split('\\')[0] ?? '').trim().toUpperCase();
  // 'ISO 2022 IR 100' and 'ISO_IR 100' name the same repertoire; normalise both to ISO_IR_100.
  const key = first.replace(/^ISO 2022 IR /, 'ISO_IR ').replace(/[\s]/g, '_');
  const label = ENCODINGS[key] ?? 'latin1';
  let decoder = decoders.get(label);
  if (!decoder) {
    decoder = new TextDecoder(label);
    decoders.set(label, decoder);
  }
  return decoder;
}
