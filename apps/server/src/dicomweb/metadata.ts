import dcmjs from 'dcmjs';
import type { DenaturalizedDataset } from 'dcmjs';
import dicomParser from 'dicom-parser';
import type { DataSet } from 'dicom-parser';
import { decoderFor, needsCodeExtensions } from '../dicom/charset.js';
import { expandDeflated, inflaterFor, relabelInflated } from '../dicom/inflate.js';
import type { DicomJson, JsonAttribute } from './dicom-json.js';

dcmjs.log.setLevel('error');

const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN']);
/** The VRs of PS3.5 table 6.2-1; anything else read from a file goes out as UN. */
const KNOWN_VRS = new Set(
  'AE AS AT CS DA DS DT FD FL IS LO LT OB OD OF OL OV OW PN SH SL SQ SS ST SV TM UC UI UL UN UR US UT UV'.split(
    ' ',
  ),
);
/** Text VRs whose values the Specific Character Set decodes. */
const TEXT_VRS = new Set(['LO', 'LT', 'PN', 'SH', 'ST', 'UC', 'UT']);
/** Binary values up to this size are inlined as base64; larger ones are left to bulk data. */
const INLINE_LIMIT = 4096;
const PIXEL_DATA = '7FE00010';
/** SOP Class, SOP Instance, Study and Series Instance UIDs: taken from the index when a read stops early. */
const IDENTIFYING = ['00080016', '00080018', '0020000D', '0020000E'];

/**
 * The full header of one instance in the DICOM JSON model (WADO-RS metadata): pixel data and large
 * binary values become BulkDataURI references, small binary values are inlined.
 *
 * A stored file was accepted by the ingest's reader (dicom-parser), which is more forgiving than
 * dcmjs; metadata degrades instead of failing (never a 500): ISO 2022 code extensions, which dcmjs
 * refuses, are decoded by `dicom/charset.ts`; an unknown character set reads as Latin-1; a File Meta
 * Information Group Length that does not match the meta header is corrected; a dataset dcmjs cannot
 * read to its end gives what it read (with the UIDs from `indexed`, the attributes the index holds,
 * which are the whole answer when nothing can be read); unknown VRs go out as UN.
 */
export async function instanceMetadata(
  file: Buffer,
  instanceUrl: string,
  indexed: DicomJson = {},
): Promise<DicomJson> {
  let dict: DenaturalizedDataset;
  let expanded: Uint8Array | undefined;
  try {
    // dcmjs would inflate a deflated dataset itself, whole, on the main thread.
    expanded = await expandDeflated(file, Number.MAX_SAFE_INTEGER);
    dict = readDataset(expanded ? relabelInflated(expanded) : file);
  } catch {
    return { ...indexed };
  }
  try {
    redecodeText(dict, file, expanded);
  } catch {
    // The values dcmjs decoded stay (the first character set only).
  }
  const json = toJson(dict, instanceUrl);
  json[PIXEL_DATA] = { vr: 'OW', BulkDataURI: `${instanceUrl}/frames/1` };
  for (const tag of IDENTIFYING) if (indexed[tag]) json[tag] ??= indexed[tag];
  return json;
}

function readDataset(file: Buffer): DenaturalizedDataset {
  const read = (bytes: Buffer, ignoreErrors: boolean) =>
    dcmjs.data.DicomMessage.readFile(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
      { untilTag: PIXEL_DATA, includeUntilTagValue: false, ignoreErrors },
    ).dict;
  try {
    return read(file, false);
  } catch {
    return read(withTrueMetaLength(file), true);
  }
}

/** The file with (0002,0000) set to the meta header's real length, as dicom-parser walks it. */
function withTrueMetaLength(file: Buffer): Buffer {
  const meta = dicomParser.readPart10Header(file);
  const end = (meta as unknown as { position: number }).position;
  const out = Buffer.from(file);
  if (out.readUInt16LE(132) === 0x0002 && out.readUInt16LE(134) === 0x0000) out.writeUInt32LE(end - 144, 140);
  return out;
}

/**
 * Text values decoded again from the file's bytes where a level of the dataset (the top, or a
 * sequence item with its own Specific Character Set) uses ISO 2022 code extensions.
 */
function redecodeText(dict: DenaturalizedDataset, file: Buffer, expanded: Uint8Array | undefined): void {
  const parsed = dicomParser.parseDicom(file, { untilTag: 'x7fe00010', inflater: inflaterFor(expanded) });
  redecodeLevel(dict, parsed, undefined);
}

function redecodeLevel(dict: DenaturalizedDataset, parsed: DataSet, inherited: string | undefined): void {
  const own = parsed.elements['x00080005'];
  const charset = own ? (parsed.string('x00080005') ?? '') : inherited;
  const decoding = charset !== undefined && needsCodeExtensions(charset) ? decoderFor(charset) : undefined;
  for (const [tag, element] of Object.entries(dict)) {
    const source = parsed.elements[`x${tag.toLowerCase()}`];
    if (!source) continue;
    if (element.vr === 'SQ') {
      const items = (element.Value ?? []) as DenaturalizedDataset[];
      items.forEach((item, i) => {
        const itemSet = source.items?.[i]?.dataSet;
        if (itemSet) redecodeLevel(item, itemSet, charset);
      });
    } else if (decoding && TEXT_VRS.has(element.vr) && source.length > 0 && source.length !== 0xffffffff) {
      const raw = parsed.byteArray.subarray(source.dataOffset, source.dataOffset + source.length);
      element.Value = textValues(element.vr, decoding.decode(raw));
    }
  }
}

function textValues(vr: string, text: string): unknown[] {
  // ST, LT and UT hold one value, in which a backslash is text.
  const values = ['ST', 'LT', 'UT'].includes(vr) ? [text] : text.split('\\');
  const trimmed = values.map((v) => v.replace(/[\0 ]+$/, ''));
  if (vr !== 'PN') return trimmed.map((v) => (vr === 'LO' || vr === 'SH' || vr === 'UC' ? v.trim() : v));
  return trimmed.map((v) => {
    const [alphabetic, ideographic, phonetic] = v.split('=');
    return {
      ...(alphabetic ? { Alphabetic: alphabetic } : {}),
      ...(ideographic ? { Ideographic: ideographic } : {}),
      ...(phonetic ? { Phonetic: phonetic } : {}),
    };
  });
}

function toJson(dataset: DenaturalizedDataset, instanceUrl: string): DicomJson {
  const out: DicomJson = {};
  for (const [tag, element] of Object.entries(dataset)) {
    if (tag === PIXEL_DATA || !element.vr) continue;
    out[tag.toUpperCase()] = attribute(tag, element.vr, element.Value, instanceUrl);
  }
  return out;
}

function attribute(
  tag: string,
  vr: string,
  value: unknown[] | undefined,
  instanceUrl: string,
): JsonAttribute {
  if (!KNOWN_VRS.has(vr)) return { vr: 'UN' };
  if (!value || value.length === 0) return { vr };
  if (vr === 'SQ') {
    return { vr, Value: value.map((item) => toJson(item as DenaturalizedDataset, instanceUrl)) };
  }
  if (BINARY_VRS.has(vr)) {
    const buffers = value.filter((v): v is ArrayBuffer => v instanceof ArrayBuffer);
    const bytes = buffers.reduce((n, b) => n + b.byteLength, 0);
    if (bytes > INLINE_LIMIT) return { vr, BulkDataURI: `${instanceUrl}/bulk/${tag.toUpperCase()}` };
    return { vr, InlineBinary: Buffer.concat(buffers.map((b) => Buffer.from(b))).toString('base64') };
  }
  // 64-bit integers (SV, UV) come as BigInt, which JSON cannot hold: numbers when exact, else strings.
  return {
    vr,
    Value: value.map((v) =>
      typeof v === 'bigint' ? (Number.isSafeInteger(Number(v)) ? Number(v) : v.toString()) : v,
    ),
  };
}
