/**
 * Decoding of text values by Specific Character Set (0008,0005).
 *
 * dicom-parser reads every string byte-by-byte as Latin-1, which garbles UTF-8 names such as
 * `MÜLLER^JÖRG`. Patient names are what users search and read, so text VRs are decoded here.
 * The single-byte ISO 8859 sets, UTF-8, GB18030/GBK and the ISO 2022 code extensions (escape
 * sequences switching sets inside a value, e.g. Japanese `ISO 2022 IR 13\ISO 2022 IR 87`) are
 * decoded; an unknown term decodes as Latin-1, which keeps the ASCII part readable rather than
 * failing the whole file.
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

function textDecoder(label: string): TextDecoder {
  let decoder = decoders.get(label);
  if (!decoder) {
    decoder = new TextDecoder(label);
    decoders.set(label, decoder);
  }
  return decoder;
}

/** Decodes the bytes of one text value. */
export interface TextDecoding {
  decode(bytes: Uint8Array): string;
}

/** The Defined Term normalised: 'ISO 2022 IR 100' and 'ISO_IR 100' name the same repertoire. */
function termKey(term: string): string {
  return term
    .trim()
    .toUpperCase()
    .replace(/^ISO 2022 IR /, 'ISO_IR ')
    .replace(/\s/g, '_');
}

/**
 * A decoder for a Specific Character Set value. A single term maps to one encoding (unknown terms
 * to Latin-1, which never fails). Several terms, or an `ISO 2022` term, mean ISO 2022 code
 * extensions (PS3.5 6.1.2.5): escape sequences inside a value switch between the named sets, as in
 * `ISO 2022 IR 13\ISO 2022 IR 87` (Japanese katakana and kanji) or `\ISO 2022 IR 149` (Korean).
 */
export function decoderFor(specificCharacterSet: string): TextDecoding {
  const first = termKey(specificCharacterSet.split('\\')[0] ?? '');
  const initial = textDecoder(ENCODINGS[first] ?? INITIAL_ISO_2022[first] ?? 'latin1');
  if (!needsCodeExtensions(specificCharacterSet)) return initial;
  return { decode: (bytes) => decodeIso2022(bytes, initial) };
}

/** Whether a Specific Character Set value means ISO 2022 code extensions (several terms, or ISO 2022). */
export function needsCodeExtensions(specificCharacterSet: string): boolean {
  const terms = specificCharacterSet.replace(/[\s\0]+$/, '').split('\\');
  return terms.length > 1 || /^ISO 2022/i.test(terms[0]!.trim());
}

/** Value 1 terms that exist only as ISO 2022 sets (their G1 bytes decode with these encodings). */
const INITIAL_ISO_2022: Record<string, string> = {
  ISO_IR_13: 'shift_jis', // JIS X 0201: katakana in 0xA1-0xDF, as in Shift JIS
  ISO_IR_149: 'euc-kr',
  ISO_IR_58: 'gb18030',
};

interface Designation {
  /** The bytes after ESC. */
  escape: number[];
  decode: (segment: Uint8Array) => string;
  /** A 7-bit two-byte set (JIS X 0208/0212): its bytes may look like delimiters. */
  twoByte7?: boolean;
}

const esc = (text: string) => [...text].map((c) => c.charCodeAt(0));
const single = (label: string) => (segment: Uint8Array) => textDecoder(label).decode(segment);

// PS3.3 C.12.1.1.2, tables C.12-3 and C.12-4: the escape sequences of the ISO 2022 terms.
const DESIGNATIONS: Designation[] = [
  { escape: esc('(B'), decode: single('latin1') }, // ISO 2022 IR 6: ASCII in G0
  { escape: esc('(J'), decode: single('latin1') }, // ISO 2022 IR 14: JIS X 0201 Romaji in G0
  { escape: esc(')I'), decode: single('shift_jis') }, // ISO 2022 IR 13: JIS X 0201 katakana in G1
  {
    escape: esc('$B'), // ISO 2022 IR 87: JIS X 0208 kanji, two 7-bit bytes each
    decode: (segment) =>
      textDecoder('iso-2022-jp').decode(Buffer.concat([Buffer.from([0x1b, 0x24, 0x42]), segment])),
    twoByte7: true,
  },
  {
    escape: esc('$(D'), // ISO 2022 IR 159: JIS X 0212, as EUC-JP writes it (0x8F and both bytes high)
    decode: (segment) => {
      const euc: number[] = [];
      for (let i = 0; i + 1 < segment.length; i += 2)
        euc.push(0x8f, segment[i]! | 0x80, segment[i + 1]! | 0x80);
      return textDecoder('euc-jp').decode(Uint8Array.from(euc));
    },
    twoByte7: true,
  },
  { escape: esc('$)C'), decode: single('euc-kr') }, // ISO 2022 IR 149: KS X 1001 in G1
  { escape: esc('$)A'), decode: single('gb18030') }, // ISO 2022 IR 58: GB 2312 in G1
  { escape: esc('-A'), decode: single('latin1') }, // IR 100
  { escape: esc('-B'), decode: single('iso-8859-2') }, // IR 101
  { escape: esc('-C'), decode: single('iso-8859-3') }, // IR 109
  { escape: esc('-D'), decode: single('iso-8859-4') }, // IR 110
  { escape: esc('-L'), decode: single('iso-8859-5') }, // IR 144
  { escape: esc('-G'), decode: single('iso-8859-6') }, // IR 127
  { escape: esc('-F'), decode: single('iso-8859-7') }, // IR 126
  { escape: esc('-H'), decode: single('iso-8859-8') }, // IR 138
  { escape: esc('-M'), decode: single('iso-8859-9') }, // IR 148
  { escape: esc('-T'), decode: single('windows-874') }, // IR 166
];

// Before these the value's first set is active again (PS3.5 6.1.2.5.3): CR, LF, FF, TAB, '\\', '^', '='.
const RESETS = new Set([0x0d, 0x0a, 0x0c, 0x09, 0x5c, 0x5e, 0x3d]);

function decodeIso2022(bytes: Uint8Array, initial: TextDecoder): string {
  const first: Designation = { escape: [], decode: (segment) => initial.decode(segment) };
  let current = first;
  let out = '';
  let start = 0;
  let i = 0;
  const flush = (end: number) => {
    if (end > start) out += current.decode(bytes.subarray(start, end));
  };
  while (i < bytes.length) {
    const byte = bytes[i]!;
    if (byte === 0x1b) {
      flush(i);
      const next = DESIGNATIONS.find((d) => d.escape.every((b, k) => bytes[i + 1 + k] === b));
      // An escape sequence not in the standard's list is dropped with its ESC; the text goes on.
      current = next ?? current;
      i += 1 + (next?.escape.length ?? 0);
      start = i;
      continue;
    }
    if (current !== first && !current.twoByte7 && RESETS.has(byte)) {
      flush(i);
      current = first;
      start = i;
    }
    i++;
  }
  flush(bytes.length);
  return out;
}
