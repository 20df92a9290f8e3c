/**
 * The de-identification engine: a pure function from one stored Part-10 file to a de-identified
 * copy, by PS3.15 Annex E's Basic Application Level Confidentiality Profile with the options and
 * per-field rules of an account's profile. The input bytes are never modified.
 *
 * Every attribute is handled wherever it occurs (inside sequences too): Table E.1-1's action for
 * it under the chosen options (annex-e.ts), unless a per-field rule names its tag. Private
 * attributes, curves (50xx) and overlays (60xx) are removed; UIDs not defined by DICOM itself are
 * remapped (same source → same UID within the account) unless UIDs are retained; the patient gets
 * a pseudonymous name and ID from a keyed hash; dates shift by one offset per patient when
 * longitudinal information is retained. The copy records what was done: Patient Identity Removed
 * (0012,0062) YES, De-identification Method (0012,0063) and its Code Sequence (0012,0064, CID 7050),
 * Longitudinal Temporal Information Modified (0028,0303); the file meta gets the new SOP Instance
 * UID and loses the sending and private information of the source.
 *
 * dcmjs reads the whole file, so the caller bounds its size (`maxBytes`).
 */
import dcmjs from 'dcmjs';
import type { DenaturalizedDataset, DicomElement } from 'dcmjs';
import { IMPLEMENTATION_CLASS_UID, IMPLEMENTATION_VERSION_NAME } from '../../dicom/write.js';
import { userPatternReplace } from '../routing/index.js';
import { annexEAction, OPTION_CODES, type Action, type DeidentificationOption } from './annex-e.js';
import { IdentifierSet } from './clean-text.js';
import { shiftDA, shiftDT } from './dates.js';
import { Pseudonyms } from './pseudonyms.js';

/** A per-field rule of a profile; it overrides Table E.1-1 for its tag wherever the tag occurs. */
export type FieldRule =
  | { tag: string; action: 'keep' | 'remove' | 'empty' }
  | { tag: string; action: 'replace'; value: string }
  | { tag: string; action: 'rewrite'; pattern: string; replacement: string };

export interface DeidentificationProfile {
  options: readonly DeidentificationOption[];
  rules: readonly FieldRule[];
}

export interface DeidentifyInput {
  bytes: Uint8Array;
  profile: DeidentificationProfile;
  /** The account's de-identification secret: the key of every pseudonym. */
  secret: Uint8Array;
  /** Larger files are refused (dcmjs holds the whole file in memory). */
  maxBytes: number;
}

export interface DeidentifyResult {
  bytes: Uint8Array;
  studyInstanceUid: string;
  seriesInstanceUid: string;
  sopInstanceUid: string;
  patientId: string;
  patientName: string;
  /** Days every date moved back, or null when dates were not kept. */
  dateShiftDays: number | null;
  /** Burned In Annotation (0028,0301) is YES, or the modality is one that burns text in (US, SC). */
  mayHaveBurnedInText: boolean;
}

export class DeidentificationError extends Error {
  override readonly name = 'DeidentificationError';
}

/** How much of a value a rewrite rule reads (RE2 is linear, and this bounds the line). */
export const REWRITE_MAX_INPUT = 1024;

const MODALITIES_WITH_BURNED_IN_TEXT = new Set(['US', 'SC', 'OT', 'XC', 'ES']);
/** UI attributes naming DICOM-defined or external things (classes, syntaxes, coding schemes): never remapped. */
const KEPT_UID_ATTRIBUTES = new Set([
  '00020002',
  '00020010',
  '00020012',
  '00041510',
  '00041512',
  '00080016',
  '0008001A',
  '0008001B',
  '00080062',
  '0008010C',
  '00080117',
  '00080118',
  '00081150',
]);
const DICOM_UID_ROOT = '1.2.840.10008.';
const DEFLATED = '1.2.840.10008.1.2.1.99';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const TEXT_VRS = new Set(['PN', 'LO', 'SH', 'ST', 'LT', 'UT', 'UC', 'AE']);
/** Maximum value lengths of the VRs a dummy or rule writes (PS3.5 Table 6.2-1). */
const MAX_LENGTH: Record<string, number> = {
  AE: 16,
  CS: 16,
  SH: 16,
  LO: 64,
  PN: 64,
  ST: 1024,
  LT: 10240,
  UC: 65535,
};

const TAG_PATIENT_NAME = '00100010';
const TAG_PATIENT_ID = '00100020';
const TAG_ISSUER = '00100021';
const TAG_BIRTH_DATE = '00100030';
const META_DROPPED = ['00020016', '00020017', '00020018', '00020100', '00020102'];

interface Context {
  inputBytes: number;
  options: ReadonlySet<DeidentificationOption>;
  rules: Map<string, FieldRule>;
  pseudonyms: Pseudonyms;
  identifiers: IdentifierSet;
  dateShift: number | null;
  patientId: string;
  patientName: string;
}

function firstText(element: DicomElement | undefined): string {
  const first = element?.Value?.[0];
  if (first === undefined || first === null || first instanceof ArrayBuffer) return '';
  if (typeof first === 'object') return String((first as { Alphabetic?: string }).Alphabetic ?? '');
  return typeof first === 'string' || typeof first === 'number' ? String(first) : '';
}

/** Every text of an element's values (PN in all its representations). */
export function valueTexts(element: DicomElement): string[] {
  const texts: string[] = [];
  for (const value of element.Value ?? []) {
    if (typeof value === 'string') texts.push(value);
    else if (typeof value === 'number') texts.push(String(value));
    else if (value && typeof value === 'object' && !(value instanceof ArrayBuffer) && element.vr === 'PN') {
      for (const part of Object.values(value as Record<string, unknown>))
        if (typeof part === 'string') texts.push(part);
    }
  }
  return texts;
}

const isPrivate = (tag: string) => parseInt(tag.slice(3, 4), 16) % 2 === 1;
const isCurveOrOverlay = (tag: string) => /^(50|60)[0-9A-F]{2}/.test(tag);

function dummy(vr: string): unknown[] {
  switch (vr) {
    case 'PN':
      return [{ Alphabetic: 'ANONYMOUS' }];
    case 'DA':
      return ['19000101'];
    case 'TM':
      return ['000000'];
    case 'DT':
      return ['19000101000000'];
    case 'DS':
    case 'IS':
      return ['0'];
    case 'AE':
    case 'CS':
    case 'SH':
    case 'LO':
    case 'ST':
    case 'LT':
    case 'UT':
    case 'UC':
      return ['ANONYMIZED'];
    default:
      return [];
  }
}

function fit(vr: string, text: string): string {
  const max = MAX_LENGTH[vr];
  return max === undefined ? text : text.slice(0, max);
}

function textElement(vr: string, texts: string[]): DicomElement {
  return { vr, Value: texts.map((t) => (vr === 'PN' ? { Alphabetic: fit(vr, t) } : fit(vr, t))) };
}

/** The action for one attribute: a rule, the pseudonym attributes, Table E.1-1, or the generic rules. */
function actionFor(tag: string, element: DicomElement, ctx: Context): Action | FieldRule | null {
  const rule = ctx.rules.get(tag);
  if (rule) return rule;
  if (isPrivate(tag) || isCurveOrOverlay(tag)) return 'X';
  const action = annexEAction(tag, ctx.options);
  if (action) return action;
  if (element.vr === 'UI' && !KEPT_UID_ATTRIBUTES.has(tag) && !ctx.options.has('retainUids')) return 'U';
  if (element.vr === 'SQ') return 'C';
  return null;
}

/** Records the identifying values of a dataset (before any change), for cleaning free text. */
function collectIdentifiers(dataset: DenaturalizedDataset, ctx: Context, depth: number): void {
  if (depth > 32) return;
  for (const [key, read] of Object.entries(dataset)) {
    const tag = key.toUpperCase();
    const element = interpretUn(tag, read);
    if (element.vr === 'SQ') {
      for (const item of element.Value ?? [])
        collectIdentifiers(item as DenaturalizedDataset, ctx, depth + 1);
      continue;
    }
    const action = actionFor(tag, element, ctx);
    if (action === 'X' || action === 'Z' || action === 'D') {
      if (TEXT_VRS.has(element.vr) || element.vr === 'DA' || element.vr === 'DT') {
        for (const text of valueTexts(element)) ctx.identifiers.add(text, element.vr);
      }
    }
  }
}

function applyRule(rule: FieldRule, element: DicomElement): DicomElement | null {
  switch (rule.action) {
    case 'keep':
      return element;
    case 'remove':
      return null;
    case 'empty':
      return { vr: element.vr, Value: [] };
    case 'replace':
      return element.vr === 'SQ' ? { vr: 'SQ', Value: [] } : textElement(element.vr, [rule.value]);
    case 'rewrite':
      if (element.vr === 'SQ') return element;
      return textElement(
        element.vr,
        valueTexts(element).map((text) =>
          userPatternReplace(rule.pattern, text, rule.replacement, REWRITE_MAX_INPUT),
        ),
      );
  }
}

/** The C action: a date shifted, a text cleaned, a sequence's items de-identified; null removes. */
function clean(element: DicomElement, ctx: Context, depth: number): DicomElement | null {
  const { vr } = element;
  if (vr === 'SQ') {
    return {
      vr,
      Value: (element.Value ?? []).map((item) =>
        deidentifyDataset(item as DenaturalizedDataset, ctx, depth + 1),
      ),
    };
  }
  if (vr === 'DA' || vr === 'DT') {
    if (ctx.dateShift === null) return { vr, Value: [] };
    const shift = vr === 'DA' ? shiftDA : shiftDT;
    return { vr, Value: valueTexts(element).map((text) => shift(text, ctx.dateShift!) ?? '') };
  }
  if (vr === 'TM') return element; // dates move by whole days: times of day stay
  if (!TEXT_VRS.has(vr)) return element;
  const cleaned: string[] = [];
  for (const text of valueTexts(element)) {
    const result = ctx.identifiers.clean(text);
    if (result === null) return null;
    cleaned.push(result);
  }
  return textElement(vr, cleaned);
}

function remapUids(element: DicomElement, ctx: Context): DicomElement {
  return {
    vr: element.vr,
    Value: valueTexts(element).map((uid) => {
      const trimmed = uid.replace(/\0/g, '').trim();
      return trimmed === '' || trimmed.startsWith(DICOM_UID_ROOT) ? trimmed : ctx.pseudonyms.uid(trimmed);
    }),
  };
}

const dictionaryEntry = (tag: string) =>
  dcmjs.data.DicomMetaDictionary.dictionary[`(${tag.slice(0, 4)},${tag.slice(4)})`];
const dictionaryVr = (tag: string) => dictionaryEntry(tag)?.vr;

const STRING_VRS = new Set([...TEXT_VRS, 'CS', 'DA', 'DT', 'TM', 'UI', 'AS', 'DS', 'IS']);

/**
 * An element read as UN (implicit VR files with private dictionaries, UN-encoded standard
 * attributes) read as the dictionary's VR when that is a string VR, so its value can be cleaned,
 * remapped or scanned like any other; other UN elements stay opaque.
 */
export function interpretUn(tag: string, element: DicomElement): DicomElement {
  if (element.vr !== 'UN') return element;
  const known = dictionaryEntry(tag);
  const raw = element.Value?.[0];
  if (!known || !STRING_VRS.has(known.vr) || !(raw instanceof ArrayBuffer) || raw.byteLength > 65536)
    return element;
  const text = Buffer.from(raw)
    .toString('latin1')
    .replace(/[\0 ]+$/, '');
  const values = text === '' ? [] : text.split('\\');
  return { vr: known.vr, Value: known.vr === 'PN' ? values.map((v) => ({ Alphabetic: v })) : values };
}

function transform(tag: string, read: DicomElement, ctx: Context, depth: number): DicomElement | null {
  const element = interpretUn(tag, read);
  // A sequence left as UN cannot be looked into, so whatever it holds cannot be de-identified.
  if (element.vr === 'UN' && dictionaryVr(tag) === 'SQ') return null;
  if (tag === TAG_PATIENT_NAME && !ctx.rules.has(tag)) return textElement('PN', [ctx.patientName]);
  if (tag === TAG_PATIENT_ID && !ctx.rules.has(tag)) return textElement(element.vr, [ctx.patientId]);
  const action = actionFor(tag, element, ctx);
  if (action === null) return element.vr === 'SQ' ? clean(element, ctx, depth) : element;
  if (typeof action === 'object') return applyRule(action, element);
  // An opaque value cannot be cleaned, replaced or remapped: only kept or removed.
  if (element.vr === 'UN' && action !== 'K') return null;
  switch (action) {
    case 'X':
      return null;
    case 'Z':
      return { vr: element.vr, Value: [] };
    case 'K':
      return element;
    case 'C':
      return clean(element, ctx, depth);
    case 'U':
      return element.vr === 'SQ' ? clean(element, ctx, depth) : remapUids(element, ctx);
    case 'D':
      if (element.vr === 'SQ') return clean(element, ctx, depth);
      if (element.vr === 'UI') return remapUids(element, ctx);
      return { vr: element.vr, Value: dummy(element.vr) };
  }
}

function deidentifyDataset(dataset: DenaturalizedDataset, ctx: Context, depth: number): DenaturalizedDataset {
  if (depth > 32) throw new DeidentificationError('sequences nested too deep');
  const result: DenaturalizedDataset = {};
  for (const [tag, element] of Object.entries(dataset)) {
    for (const value of element.Value ?? []) {
      // dcmjs reads some broken files into values larger than the file: refused, never written.
      if (value instanceof ArrayBuffer && value.byteLength > ctx.inputBytes) {
        throw new DeidentificationError(`element ${tag} is longer than the file (not a readable DICOM file)`);
      }
    }
    const changed = transform(tag.toUpperCase(), element, ctx, depth);
    if (changed) result[tag] = changed;
  }
  return result;
}

function patientIdentity(dataset: DenaturalizedDataset): string {
  const text = (tag: string) => {
    const element = dataset[tag];
    return element ? firstText(interpretUn(tag, element)).trim() : '';
  };
  const id = text(TAG_PATIENT_ID);
  if (id) return `id:${id}\0${text(TAG_ISSUER)}`;
  return `name:${text(TAG_PATIENT_NAME)}\0${text(TAG_BIRTH_DATE)}`;
}

function methodElements(
  options: ReadonlySet<DeidentificationOption>,
  dateShift: number | null,
): DenaturalizedDataset {
  const chosen = (['basic', ...options] as const).map((key) => OPTION_CODES[key]);
  return {
    '00120062': { vr: 'CS', Value: ['YES'] },
    // LO holds 64 characters: one value per profile or option.
    '00120063': { vr: 'LO', Value: chosen.map((c) => c.meaning.slice(0, 64)) },
    '00120064': {
      vr: 'SQ',
      Value: chosen.map((c) => ({
        '00080100': { vr: 'SH', Value: [c.code] },
        '00080102': { vr: 'SH', Value: ['DCM'] },
        '00080104': { vr: 'LO', Value: [c.meaning.slice(0, 64)] },
      })),
    },
    '00280303': { vr: 'CS', Value: [dateShift === null ? 'REMOVED' : 'MODIFIED'] },
  };
}

/** The de-identified copy of one Part-10 file. DeidentificationError when it cannot be read or written. */
/**
 * The transfer syntax a copy of a file in `syntax` is written in: its own, except a deflated file,
 * which is written inflated (a push proposes it before the copy is made).
 */
export function deidentifiedTransferSyntax(syntax: string): string {
  return syntax === DEFLATED ? EXPLICIT_LE : syntax;
}

export function deidentify(input: DeidentifyInput): DeidentifyResult {
  const { bytes, profile } = input;
  if (bytes.byteLength > input.maxBytes)
    throw new DeidentificationError(`file larger than ${input.maxBytes} bytes`);
  // A copy: dcmjs reads from this buffer, and the caller's bytes stay as they were.
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  let dicom: ReturnType<typeof dcmjs.data.DicomMessage.readFile>;
  try {
    dicom = dcmjs.data.DicomMessage.readFile(buffer, { untilTag: undefined });
  } catch (error) {
    throw new DeidentificationError('not a readable DICOM file', { cause: error });
  }
  const options = new Set(profile.options);
  const pseudonyms = new Pseudonyms(input.secret);
  const identity = patientIdentity(dicom.dict);
  const code = pseudonyms.patientCode(identity);
  const ctx: Context = {
    inputBytes: bytes.byteLength,
    options,
    rules: new Map(profile.rules.map((rule) => [rule.tag.toUpperCase(), rule])),
    pseudonyms,
    identifiers: new IdentifierSet(),
    dateShift: options.has('retainLongitudinalModifiedDates') ? pseudonyms.dateShiftDays(identity) : null,
    patientId: `ANON${code}`,
    patientName: `ANONYMOUS^${code}`,
  };
  collectIdentifiers(dicom.dict, ctx, 0);
  const dataset = deidentifyDataset(dicom.dict, ctx, 0);
  Object.assign(dataset, methodElements(options, ctx.dateShift));
  if (ctx.rules.has(TAG_PATIENT_NAME) || ctx.rules.has(TAG_PATIENT_ID)) {
    // A rule decided these; the result reports what the file now says.
    ctx.patientName = firstText(dataset[TAG_PATIENT_NAME]);
    ctx.patientId = firstText(dataset[TAG_PATIENT_ID]);
  }

  const meta: DenaturalizedDataset = { ...dicom.meta };
  for (const tag of META_DROPPED) delete meta[tag];
  const sopInstanceUid =
    firstText(dataset['00080018']) || firstText(remapUids(meta['00020003'] ?? { vr: 'UI', Value: [] }, ctx));
  meta['00020003'] = { vr: 'UI', Value: [sopInstanceUid] };
  meta['00020012'] = { vr: 'UI', Value: [IMPLEMENTATION_CLASS_UID] };
  meta['00020013'] = { vr: 'SH', Value: [IMPLEMENTATION_VERSION_NAME] };
  // dcmjs reads deflated datasets but does not write them back readably: the copy is written
  // inflated, in Explicit VR Little Endian, which every reader of the deflated syntax reads too.
  const syntax = firstText(meta['00020010']).replace(/\0/g, '').trim();
  if (deidentifiedTransferSyntax(syntax) !== syntax) meta['00020010'] = { vr: 'UI', Value: [EXPLICIT_LE] };

  dicom.meta = meta;
  dicom.dict = dataset;
  let out: ArrayBuffer;
  try {
    // Values the source already held out of their VR's length are written as they were read.
    out = dicom.write({ allowInvalidVRLength: true });
  } catch (error) {
    throw new DeidentificationError('the de-identified file could not be written', { cause: error });
  }
  const burnedIn = firstText(dicom.dict['00280301']).trim().toUpperCase() === 'YES';
  return {
    bytes: new Uint8Array(out),
    studyInstanceUid: firstText(dataset['0020000D']),
    seriesInstanceUid: firstText(dataset['0020000E']),
    sopInstanceUid,
    patientId: ctx.patientId,
    patientName: ctx.patientName,
    dateShiftDays: ctx.dateShift,
    mayHaveBurnedInText:
      burnedIn || MODALITIES_WITH_BURNED_IN_TEXT.has(firstText(dicom.dict['00080060']).trim()),
  };
}
