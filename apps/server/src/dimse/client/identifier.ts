/**
 * Query identifiers (C-FIND/C-MOVE request datasets) encoded from keyword maps, and response
 * identifiers decoded back, in Implicit or Explicit VR Little Endian (the only syntaxes we propose
 * for query contexts). Small on purpose: text, a few binary numbers and sequences are all a query
 * carries. Text is decoded in the dataset's Specific Character Set (`dicom/charset.ts`).
 */
import dcmjs from 'dcmjs';
import { decoderFor } from '../../dicom/charset.js';
import { LONG_LENGTH_VRS } from '../../dicom/element-header.js';
import type { DicomAttributes, QueryKeys } from './types.js';

export const IMPLICIT_LE = '1.2.840.10008.1.2';
export const EXPLICIT_LE = '1.2.840.10008.1.2.1';

export class IdentifierError extends Error {}

interface Entry {
  tag: number;
  vr: string;
  keyword: string;
}

let byKeyword: Map<string, Entry> | undefined;
let byTag: Map<number, Entry> | undefined;

/** The dcmjs data dictionary indexed both ways, built on first use. */
function dictionary(): { byKeyword: Map<string, Entry>; byTag: Map<number, Entry> } {
  if (!byKeyword || !byTag) {
    byKeyword = new Map();
    byTag = new Map();
    for (const [keyword, entry] of Object.entries(dcmjs.data.DicomMetaDictionary.nameMap)) {
      const match = /^\(([0-9A-F]{4}),([0-9A-F]{4})\)$/i.exec(entry.tag);
      if (!match) continue; // repeating groups (50xx,…) are not query keys
      const tag = parseInt(match[1]! + match[2]!, 16);
      const normalized: Entry = { tag, vr: normalizeVr(entry.vr), keyword };
      byKeyword.set(keyword, normalized);
      byTag.set(tag, normalized);
    }
  }
  return { byKeyword, byTag };
}

/** Dictionary VRs such as `US or SS`, `ox`, `xs` → one VR. */
function normalizeVr(vr: string): string {
  const head = vr.slice(0, 2).toUpperCase();
  if (head === 'OX') return 'OB';
  if (head === 'XS') return 'US';
  return head;
}

function entryFor(key: string): Entry {
  if (/^[0-9A-Fa-f]{8}$/.test(key)) {
    const tag = parseInt(key, 16);
    return dictionary().byTag.get(tag) ?? { tag, vr: 'UN', keyword: key.toUpperCase() };
  }
  const entry = dictionary().byKeyword.get(key);
  if (!entry) throw new IdentifierError(`unknown DICOM keyword ${JSON.stringify(key)}`);
  return entry;
}

/** VRs whose value may use the Specific Character Set (PS3.5 6.1.2.3). */
const CHARSET_VRS = new Set(['PN', 'LO', 'SH', 'ST', 'LT', 'UC', 'UT']);
const NUMBER_VRS: Record<string, { size: number; read: (b: Buffer, o: number) => number }> = {
  US: { size: 2, read: (b, o) => b.readUInt16LE(o) },
  SS: { size: 2, read: (b, o) => b.readInt16LE(o) },
  UL: { size: 4, read: (b, o) => b.readUInt32LE(o) },
  SL: { size: 4, read: (b, o) => b.readInt32LE(o) },
  FL: { size: 4, read: (b, o) => b.readFloatLE(o) },
  FD: { size: 8, read: (b, o) => b.readDoubleLE(o) },
};

// --- encoding -----------------------------------------------------------------------------------

/**
 * Encodes query keys (plus any fixed ones such as QueryRetrieveLevel) as a dataset. When a text
 * value is not ASCII, every text goes in UTF-8 under Specific Character Set `ISO_IR 192`.
 */
export function encodeIdentifier(keys: QueryKeys, transferSyntax: string): Buffer {
  const explicit = transferSyntax !== IMPLICIT_LE;
  const utf8 = hasNonAscii(keys);
  const all: QueryKeys = utf8 ? { ...keys, SpecificCharacterSet: 'ISO_IR 192' } : keys;
  return encodeItem(all, explicit, utf8);
}

function hasNonAscii(keys: QueryKeys): boolean {
  return Object.values(keys).some((value) =>
    typeof value === 'string' ? /[^ -~\t\r\n]/.test(value) : value.some((item) => hasNonAscii(item)),
  );
}

function encodeItem(keys: QueryKeys, explicit: boolean, utf8: boolean): Buffer {
  const elements = Object.entries(keys).map(([key, value]) => ({ entry: entryFor(key), value }));
  elements.sort((a, b) => a.entry.tag - b.entry.tag);
  const parts: Buffer[] = [];
  for (const { entry, value } of elements) {
    let vr = entry.vr;
    let body: Buffer;
    if (typeof value === 'string') {
      if (vr === 'SQ') throw new IdentifierError(`${entry.keyword} is a sequence: give it an array of items`);
      body = encodeValue(vr, value, utf8, entry.keyword);
    } else {
      if (vr !== 'SQ' && vr !== 'UN') throw new IdentifierError(`${entry.keyword} is not a sequence`);
      vr = 'SQ';
      body = Buffer.concat(value.map((item) => itemBytes(encodeItem(item, explicit, utf8))));
    }
    parts.push(elementHeader(entry.tag, vr, body.length, explicit), body);
  }
  return Buffer.concat(parts);
}

function encodeValue(vr: string, value: string, utf8: boolean, keyword: string): Buffer {
  const number = NUMBER_VRS[vr];
  if (number) {
    if (value === '') return Buffer.alloc(0);
    const values = value.split('\\').map(Number);
    if (values.some((n) => !Number.isFinite(n))) throw new IdentifierError(`${keyword} needs numbers`);
    const out = Buffer.alloc(values.length * number.size);
    values.forEach((n, i) => {
      const o = i * number.size;
      if (vr === 'US') out.writeUInt16LE(n, o);
      else if (vr === 'SS') out.writeInt16LE(n, o);
      else if (vr === 'UL') out.writeUInt32LE(n, o);
      else if (vr === 'SL') out.writeInt32LE(n, o);
      else if (vr === 'FL') out.writeFloatLE(n, o);
      else out.writeDoubleLE(n, o);
    });
    return out;
  }
  const bytes = Buffer.from(value, utf8 && CHARSET_VRS.has(vr) ? 'utf8' : 'latin1');
  if (bytes.length % 2 === 0) return bytes;
  return Buffer.concat([bytes, Buffer.from([vr === 'UI' ? 0 : 0x20])]);
}

/**
 * Tag, then (explicit VR) the VR, then the length: 4 bytes after the VR's 2 reserved bytes for the
 * long-length VRs, 2 bytes right after the VR for the rest; implicit VR always has 4.
 */
function elementHeader(tag: number, vr: string, length: number, explicit: boolean): Buffer {
  const group = tag >>> 16;
  const element = tag & 0xffff;
  const longLength = explicit && LONG_LENGTH_VRS.has(vr);
  if (explicit && !longLength && length > 0xffff) {
    throw new IdentifierError(`value of (${hex(group)},${hex(element)}) too long`);
  }
  const header = Buffer.alloc(longLength ? 12 : 8);
  header.writeUInt16LE(group, 0);
  header.writeUInt16LE(element, 2);
  if (!explicit) header.writeUInt32LE(length, 4);
  else {
    header.write(vr, 4, 'latin1');
    if (longLength) header.writeUInt32LE(length, 8);
    else header.writeUInt16LE(length, 6);
  }
  return header;
}

/** A sequence item (FFFE,E000) of known length: its header is laid out as an implicit-VR element's. */
function itemBytes(body: Buffer): Buffer {
  return Buffer.concat([elementHeader(0xfffee000, '', body.length, false), body]);
}

// --- decoding -----------------------------------------------------------------------------------

const UNDEFINED = 0xffffffff;

/** Decodes a response identifier. Throws IdentifierError on a dataset that does not parse. */
export function decodeIdentifier(bytes: Buffer, transferSyntax: string): DicomAttributes {
  const reader = { bytes, offset: 0, explicit: transferSyntax !== IMPLICIT_LE };
  return readItem(reader, bytes.length, '');
}

interface Reader {
  bytes: Buffer;
  offset: number;
  explicit: boolean;
}

/** Reads elements up to `end` (or an item delimiter when `end` is undefined-length). */
function readItem(reader: Reader, end: number, inheritedCharset: string): DicomAttributes {
  const out: DicomAttributes = {};
  let charset = inheritedCharset;
  const { bytes } = reader;
  while (reader.offset < end) {
    if (reader.offset + 8 > bytes.length) throw new IdentifierError('truncated element header');
    const group = bytes.readUInt16LE(reader.offset);
    const element = bytes.readUInt16LE(reader.offset + 2);
    const tag = ((group << 16) | element) >>> 0;
    if (tag === 0xfffee00d) {
      reader.offset += 8; // item delimitation
      return out;
    }
    const known = dictionary().byTag.get(tag);
    let vr: string;
    let length: number;
    if (reader.explicit) {
      vr = bytes.toString('latin1', reader.offset + 4, reader.offset + 6);
      if (LONG_LENGTH_VRS.has(vr)) {
        if (reader.offset + 12 > bytes.length) throw new IdentifierError('truncated element header');
        length = bytes.readUInt32LE(reader.offset + 8);
        reader.offset += 12;
      } else {
        length = bytes.readUInt16LE(reader.offset + 6);
        reader.offset += 8;
      }
    } else {
      length = bytes.readUInt32LE(reader.offset + 4);
      reader.offset += 8;
      vr = known?.vr ?? (length === UNDEFINED ? 'SQ' : 'UN');
    }
    const keyword = known?.keyword ?? tag.toString(16).toUpperCase().padStart(8, '0');
    if (vr === 'SQ' || (vr === 'UN' && length === UNDEFINED)) {
      out[keyword] = readSequence(reader, length, charset);
      continue;
    }
    if (length === UNDEFINED) throw new IdentifierError(`undefined length on ${keyword}`);
    const valueEnd = reader.offset + length;
    if (valueEnd > bytes.length) throw new IdentifierError(`value of ${keyword} overruns the dataset`);
    const value = bytes.subarray(reader.offset, valueEnd);
    reader.offset = valueEnd;
    if (element === 0x0000) continue; // group lengths say nothing to a caller
    const number = NUMBER_VRS[vr];
    if (number) {
      const values: number[] = [];
      for (let o = 0; o + number.size <= value.length; o += number.size) values.push(number.read(value, o));
      out[keyword] = values;
    } else if (TEXT_VRS.has(vr)) {
      const text = CHARSET_VRS.has(vr) ? decoderFor(charset).decode(value) : value.toString('latin1');
      out[keyword] = text.replace(/[\0 ]+$/, '');
      if (tag === 0x00080005) charset = out[keyword];
    }
    // OB, OW, UN and other bulk values are left out.
  }
  return out;
}

const TEXT_VRS = new Set([
  'AE',
  'AS',
  'CS',
  'DA',
  'DS',
  'DT',
  'IS',
  'LO',
  'LT',
  'PN',
  'SH',
  'ST',
  'TM',
  'UC',
  'UI',
  'UR',
  'UT',
]);

function readSequence(reader: Reader, length: number, charset: string): DicomAttributes[] {
  const items: DicomAttributes[] = [];
  const end = length === UNDEFINED ? Infinity : reader.offset + length;
  const { bytes } = reader;
  while (reader.offset < end) {
    if (reader.offset + 8 > bytes.length) {
      if (end === Infinity) throw new IdentifierError('sequence without its delimiter');
      throw new IdentifierError('truncated item header');
    }
    const tag = ((bytes.readUInt16LE(reader.offset) << 16) | bytes.readUInt16LE(reader.offset + 2)) >>> 0;
    const itemLength = bytes.readUInt32LE(reader.offset + 4);
    reader.offset += 8;
    if (tag === 0xfffee0dd) return items; // sequence delimitation
    if (tag !== 0xfffee000) throw new IdentifierError(`unexpected (${tag.toString(16)}) in a sequence`);
    const itemEnd = itemLength === UNDEFINED ? Infinity : reader.offset + itemLength;
    if (itemEnd !== Infinity && itemEnd > bytes.length)
      throw new IdentifierError('item overruns the dataset');
    items.push(readItem(reader, itemEnd === Infinity ? bytes.length : itemEnd, charset));
  }
  return items;
}

function hex(n: number): string {
  return n.toString(16).padStart(4, '0');
}
