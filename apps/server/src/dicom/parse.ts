/**
 * Fast DICOM Part-10 header reader for the ingest pipeline.
 *
 * dicom-parser is used instead of dcmjs because it only records element offsets (no value decoding,
 * no copies of pixel data), so indexing a file costs little more than a scan of its header. Parsing
 * stops at Pixel Data (7FE0,0010); the bytes after it are never examined except to prove the pixel
 * data element is complete, because a file cut mid-transfer must be rejected rather than indexed.
 *
 * Transfer syntaxes: implicit VR little endian, explicit VR little and big endian, every encapsulated
 * (compressed) syntax (only the header is read), and deflated explicit VR little endian
 * (1.2.840.10008.1.2.1.99), which dicom-parser supports through an `inflater` callback fed by node:zlib
 * with a ceiling (`inflate.ts`): `readDicomHeader` inflates off the main thread first.
 * Files without the 128-byte preamble + `DICM` (raw datasets) are rejected: the ingest pipeline only
 * accepts Part-10 files, and guessing the transfer syntax of a raw dataset is unreliable.
 */
import dicomParser from 'dicom-parser';
import type { DataSet, Element } from 'dicom-parser';
import { decoderFor } from './charset.js';
import { LONG_LENGTH_VRS } from './element-header.js';
import { readItemHeader, ITEM_HEADER_BYTES, UNDEFINED_LENGTH } from './encapsulated.js';
import { DicomParseError } from './errors.js';
import { expandDeflated, inflaterFor, inflateSync } from './inflate.js';

/** The attributes the server indexes for one SOP instance. Strings are '' when the attribute is absent. */
export interface ParsedInstance {
  studyInstanceUid: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
  /** From (0008,0016), falling back to the meta header's MediaStorageSOPClassUID. */
  sopClassUid: string;
  transferSyntaxUid: string;
  /** Raw DICOM PN value, e.g. `DOE^JOHN`, decoded with the file's Specific Character Set. */
  patientName: string;
  patientId: string;
  patientSex: string;
  /** `YYYYMMDD`, or '' when absent or not a valid DA value. */
  patientBirthDate: string;
  /** Raw AS value, e.g. `045Y`. */
  patientAge: string;
  accessionNumber: string;
  studyDescription: string;
  /** Raw DA value as stored (normally `YYYYMMDD`). */
  studyDate: string;
  /** Raw TM value as stored (e.g. `142233` or `142233.123`). */
  studyTime: string;
  modality: string;
  referringPhysician: string;
  seriesNumber: number | null;
  seriesDescription: string;
  bodyPart: string;
  instanceNumber: number | null;
  rows: number | null;
  columns: number | null;
  /** Number of Frames (0028,0008); 1 for single-frame images, null when the object has no pixel data. */
  numberOfFrames: number | null;
  institutionName: string;
  /** Size of the file as received (the deflated size for deflated files). */
  byteLength: number;
}

const PIXEL_DATA = 'x7fe00010';
/** The most a deflated prefix is inflated for an early look at an arriving dataset. */
const ARRIVING_INFLATE_MAX = 1024 * 1024;
const IMPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2';

// Tags in dicom-parser's `xggggeeee` form, named by DICOM keyword for readable errors.
const T = {
  TransferSyntaxUID: 'x00020010',
  MediaStorageSOPClassUID: 'x00020002',
  SpecificCharacterSet: 'x00080005',
  SOPClassUID: 'x00080016',
  SOPInstanceUID: 'x00080018',
  StudyDate: 'x00080020',
  StudyTime: 'x00080030',
  AccessionNumber: 'x00080050',
  Modality: 'x00080060',
  InstitutionName: 'x00080080',
  ReferringPhysicianName: 'x00080090',
  StudyDescription: 'x00081030',
  SeriesDescription: 'x0008103e',
  PatientName: 'x00100010',
  PatientID: 'x00100020',
  PatientBirthDate: 'x00100030',
  PatientSex: 'x00100040',
  PatientAge: 'x00101010',
  BodyPartExamined: 'x00180015',
  StudyInstanceUID: 'x0020000d',
  SeriesInstanceUID: 'x0020000e',
  SeriesNumber: 'x00200011',
  InstanceNumber: 'x00200013',
  NumberOfFrames: 'x00280008',
  Rows: 'x00280010',
  Columns: 'x00280011',
} as const;

// Warnings dicom-parser emits (instead of throwing) when a sequence or item runs off the end of the
// buffer. They mean the file is truncated. The "peeking to determine VR" warning is left out: it also
// fires for a legitimate short element at the very end of an implicit-VR file.
const TRUNCATION_WARNING =
  /eof encountered before finding (item delimiter|sequence (delimitation|delimiter|item delimiter))/;

/**
 * `parseDicomHeader` for a received file: a deflated dataset is first inflated off the main thread
 * and refused (DECOMPRESSION_LIMIT) once past `maxInflatedBytes` or the ratio ceiling (`inflate.ts`).
 */
export async function readDicomHeader(bytes: Uint8Array, maxInflatedBytes: number): Promise<ParsedInstance> {
  if (bytes.length < 132 || !hasDicmPrefix(bytes)) return parseDicomHeader(bytes);
  return parseDicomHeader(bytes, await expandDeflated(bytes, maxInflatedBytes));
}

/**
 * Reads the indexable header attributes of a DICOM Part-10 file. `expanded` is the file with its
 * deflated dataset already inflated (`expandDeflated`); without it a deflated dataset is inflated
 * here, on this thread, within the ratio ceiling.
 * @throws DicomParseError FILE_CONTENT_EMPTY, INVALID_DICOM, DECOMPRESSION_LIMIT or TAG_NOT_FOUND
 * (detail = attribute keyword).
 */
export function parseDicomHeader(bytes: Uint8Array, expanded?: Uint8Array): ParsedInstance {
  if (bytes.length === 0) throw new DicomParseError('FILE_CONTENT_EMPTY', 'file is empty');
  // Checked here rather than left to dicom-parser so that short non-DICOM input gets a clear reason.
  if (bytes.length < 132 || !hasDicmPrefix(bytes)) {
    throw new DicomParseError('INVALID_DICOM', 'no DICM prefix at offset 128 (not a DICOM Part-10 file)');
  }

  const dataSet = readUntilPixelData(bytes, inflaterFor(expanded));
  assertComplete(dataSet);

  const text = reader(dataSet);
  const required = (keyword: 'StudyInstanceUID' | 'SeriesInstanceUID' | 'SOPInstanceUID'): string => {
    const value = text(T[keyword], true);
    if (value === '') throw new DicomParseError('TAG_NOT_FOUND', keyword);
    return value;
  };

  const studyInstanceUid = required('StudyInstanceUID');
  const seriesInstanceUid = required('SeriesInstanceUID');
  const sopInstanceUid = required('SOPInstanceUID');
  const birthDate = text(T.PatientBirthDate);
  const hasPixelData = dataSet.elements[PIXEL_DATA] !== undefined;

  return {
    studyInstanceUid,
    seriesInstanceUid,
    sopInstanceUid,
    sopClassUid: text(T.SOPClassUID, true) || text(T.MediaStorageSOPClassUID, true),
    transferSyntaxUid: text(T.TransferSyntaxUID, true),
    patientName: text(T.PatientName),
    patientId: text(T.PatientID),
    patientSex: text(T.PatientSex, true),
    patientBirthDate: /^\d{8}$/.test(birthDate) ? birthDate : '',
    patientAge: text(T.PatientAge, true),
    accessionNumber: text(T.AccessionNumber),
    studyDescription: text(T.StudyDescription),
    studyDate: text(T.StudyDate, true),
    studyTime: text(T.StudyTime, true),
    modality: text(T.Modality, true),
    referringPhysician: text(T.ReferringPhysicianName),
    seriesNumber: integer(text(T.SeriesNumber, true)),
    seriesDescription: text(T.SeriesDescription),
    bodyPart: text(T.BodyPartExamined, true),
    instanceNumber: integer(text(T.InstanceNumber, true)),
    rows: uint16(dataSet, T.Rows),
    columns: uint16(dataSet, T.Columns),
    numberOfFrames: integer(text(T.NumberOfFrames, true)) ?? (hasPixelData ? 1 : null),
    institutionName: text(T.InstitutionName),
    byteLength: bytes.length,
  };
}

/**
 * The instance's UIDs from the first part of a file still arriving, once it reaches the Pixel Data
 * element (whose value may still be missing); undefined before that, or when the part cannot be read
 * (a deflated dataset, a broken one: parsing the complete file will say why). Only an early look:
 * the complete file is parsed again before anything is indexed.
 */
export function parseArrivingHeader(
  prefix: Uint8Array,
): { studyInstanceUid: string; sopInstanceUid: string } | undefined {
  if (prefix.length < 132 || !hasDicmPrefix(prefix)) return undefined;
  try {
    // An early look runs on the main thread as bytes arrive: a deflated header past 1 MiB waits
    // for the complete file (read off the main thread).
    const dataSet = readUntilPixelData(prefix, (bytes, position) =>
      inflateSync(bytes, position, ARRIVING_INFLATE_MAX),
    );
    if (!dataSet.elements[PIXEL_DATA]) return undefined;
    assertElementsInside(dataSet);
    const text = reader(dataSet);
    const studyInstanceUid = text(T.StudyInstanceUID, true);
    const sopInstanceUid = text(T.SOPInstanceUID, true);
    if (!studyInstanceUid || !sopInstanceUid) return undefined;
    return { studyInstanceUid, sopInstanceUid };
  } catch {
    return undefined;
  }
}

function readUntilPixelData(
  bytes: Uint8Array,
  inflater: (bytes: Uint8Array, position: number) => Uint8Array,
): DataSet {
  try {
    return dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA, inflater });
  } catch (error) {
    if (error instanceof DicomParseError) throw error;
    // dicom-parser throws strings, Errors, or `{ exception, dataSet }` objects; keep the text for logs.
    throw new DicomParseError('INVALID_DICOM', `unreadable dataset: ${describe(error)}`, { cause: error });
  }
}

function hasDicmPrefix(bytes: Uint8Array): boolean {
  return bytes[128] === 0x44 && bytes[129] === 0x49 && bytes[130] === 0x43 && bytes[131] === 0x4d;
}

/**
 * dicom-parser skips element values with an unchecked seek, so a file cut inside a value (most often
 * inside Pixel Data, which is where a truncated upload usually ends) parses "successfully". Every
 * element's value, the pixel data's fragments and any elements after the pixel data (e.g. trailing
 * padding) must therefore be shown to lie inside the buffer.
 */
function assertComplete(dataSet: DataSet): void {
  assertElementsInside(dataSet);
  const end = dataSet.byteArray.length;
  const pixelData = dataSet.elements[PIXEL_DATA];
  if (!pixelData) return;
  const pixelEnd =
    pixelData.length === UNDEFINED_LENGTH
      ? endOfFragments(dataSet, pixelData.dataOffset)
      : pixelData.dataOffset + pixelData.length;
  if (pixelEnd > end)
    throw new DicomParseError('INVALID_DICOM', 'truncated: pixel data runs past end of file');
  assertTailComplete(dataSet, pixelEnd);
}

/** Every element read (all but Pixel Data, where parsing stopped) lies inside the bytes. */
function assertElementsInside(dataSet: DataSet): void {
  const end = dataSet.byteArray.length;
  const truncated = dataSet.warnings.find((w) => TRUNCATION_WARNING.test(w));
  if (truncated) throw new DicomParseError('INVALID_DICOM', `truncated: ${truncated}`);

  const check = (elements: Record<string, Element>): void => {
    for (const element of Object.values(elements)) {
      if (element.tag === PIXEL_DATA) continue; // parsing stopped at its header; checked by the caller
      if (element.length !== UNDEFINED_LENGTH && element.dataOffset + element.length > end) {
        throw new DicomParseError('INVALID_DICOM', `truncated: element ${element.tag} runs past end of file`);
      }
      for (const item of element.items ?? []) if (item.dataSet) check(item.dataSet.elements);
    }
  };
  check(dataSet.elements);
}

/**
 * Encapsulated pixel data (`encapsulated.ts`): a run of items ended by a sequence delimiter.
 * Walking the item headers is cheap (a few per frame) and proves every fragment is present.
 * Returns the offset just past the delimiter.
 */
function endOfFragments(dataSet: DataSet, start: number): number {
  const bytes = dataSet.byteArray;
  let position = start;
  for (;;) {
    const item = readItemHeader(bytes, position);
    if (!item) break;
    position += ITEM_HEADER_BYTES;
    if (item.kind === 'delimiter') return position;
    position += item.length;
  }
  throw new DicomParseError('INVALID_DICOM', 'truncated: encapsulated pixel data has no sequence delimiter');
}

/**
 * Elements after Pixel Data (usually Data Set Trailing Padding) are not parsed, but a cut inside them
 * still means the upload is incomplete, so their headers are walked. An element of undefined length
 * there is accepted without further checks (it does not occur in practice).
 */
function assertTailComplete(dataSet: DataSet, start: number): void {
  const bytes = dataSet.byteArray;
  const parser = dataSet.byteArrayParser;
  const explicit = dataSet.string(T.TransferSyntaxUID) !== IMPLICIT_VR_LITTLE_ENDIAN;
  let position = start;
  while (position < bytes.length) {
    if (position + 8 > bytes.length)
      throw new DicomParseError('INVALID_DICOM', 'truncated: partial element header');
    let length: number;
    const vr = String.fromCharCode(bytes[position + 4] ?? 0, bytes[position + 5] ?? 0);
    if (!explicit) {
      length = parser.readUint32(bytes, position + 4);
      position += 8;
    } else if (LONG_LENGTH_VRS.has(vr)) {
      if (position + 12 > bytes.length)
        throw new DicomParseError('INVALID_DICOM', 'truncated: partial element header');
      length = parser.readUint32(bytes, position + 8);
      position += 12;
    } else {
      length = parser.readUint16(bytes, position + 6);
      position += 8;
    }
    if (length === UNDEFINED_LENGTH) return;
    position += length;
  }
  if (position > bytes.length)
    throw new DicomParseError('INVALID_DICOM', 'truncated: element after pixel data');
}

/**
 * Returns a string reader for the data set. Values are decoded with the Specific Character Set and
 * trailing padding (spaces, NULs) is removed; `trimStart` also removes leading spaces, which are
 * insignificant for UI/CS/DA/TM/IS/AS values but may be meaningful in names and descriptions.
 */
function reader(dataSet: DataSet): (tag: string, trimStart?: boolean) => string {
  const ascii = (tag: string): string => {
    const element = dataSet.elements[tag];
    if (!element || element.length === 0 || element.length === UNDEFINED_LENGTH) return '';
    return latin1(dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length));
  };
  const decoder = decoderFor(ascii(T.SpecificCharacterSet));
  return (tag, trimStart = false) => {
    const element = dataSet.elements[tag];
    if (!element || element.length === 0 || element.length === UNDEFINED_LENGTH) return '';
    const raw = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length);
    // A NUL inside a value (never valid DICOM text) becomes U+FFFD: PostgreSQL text cannot hold
    // U+0000, and a file carrying one was refused with a server error instead of indexed.
    const value = decoder
      .decode(raw)
      .replace(/[\s\0]+$/, '')
      .replace(/\0/g, '\uFFFD');
    return trimStart ? value.trimStart() : value;
  };
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const byte of bytes) out += String.fromCharCode(byte);
  return out;
}

/** IS values: an integer string, else null (an empty or malformed value is not a number). */
function integer(value: string): number | null {
  return /^[+-]?\d+$/.test(value) ? Number.parseInt(value, 10) : null;
}

function uint16(dataSet: DataSet, tag: string): number | null {
  const element = dataSet.elements[tag];
  if (!element || element.length < 2) return null;
  return dataSet.uint16(tag) ?? null;
}

function describe(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof Error) return error.message;
  if (error && typeof error === 'object' && 'exception' in error) return describe(error.exception);
  return String(error);
}
