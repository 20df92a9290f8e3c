/**
 * Rewrites patient and study attributes inside a stored Part-10 file when an edit (study/set,
 * e.g. Edit MRN) changes them, so a downloaded or forwarded file says what the index says.
 *
 * The previous values are kept in the file as PS3.3 C.12.1 asks of a system that corrects
 * attributes: one new item of Original Attributes Sequence (0400,0561) holding Modified Attributes
 * Sequence (0400,0550) with the old values, Attribute Modification DateTime (0400,0562),
 * Modifying System (0400,0563), Source of Previous Values (0400,0564, empty: the value came from
 * this file) and Reason for the Attribute Modification (0400,0565) CORRECT (COERCE for values taken from an order). Earlier items are
 * kept, so a file edited twice carries both histories.
 *
 * Elements are edited in the denaturalised dataset dcmjs reads, so every other element (private
 * tags, pixel data, encapsulated fragments) is written back as it was read.
 */
import dcmjs from 'dcmjs';
import type { DenaturalizedDataset } from 'dcmjs';
import { IMPLEMENTATION_VERSION_NAME } from './write.js';

/** The attributes an edit may rewrite: keyword → tag and VR. */
export const EDITABLE_ATTRIBUTES = {
  PatientID: { tag: '00100020', vr: 'LO' },
  PatientName: { tag: '00100010', vr: 'PN' },
  PatientSex: { tag: '00100040', vr: 'CS' },
  PatientBirthDate: { tag: '00100030', vr: 'DA' },
  AccessionNumber: { tag: '00080050', vr: 'SH' },
  StudyDescription: { tag: '00081030', vr: 'LO' },
  ReferringPhysicianName: { tag: '00080090', vr: 'PN' },
  StudyDate: { tag: '00080020', vr: 'DA' },
  StudyTime: { tag: '00080030', vr: 'TM' },
} as const;

export type EditableAttribute = keyof typeof EDITABLE_ATTRIBUTES;

const ORIGINAL_ATTRIBUTES_SEQUENCE = '04000561';
const MODIFIED_ATTRIBUTES_SEQUENCE = '04000550';
const ATTRIBUTE_MODIFICATION_DATETIME = '04000562';
const MODIFYING_SYSTEM = '04000563';
const SOURCE_OF_PREVIOUS_VALUES = '04000564';
const REASON_FOR_MODIFICATION = '04000565';

export interface ModifyOptions {
  /** When the change is made (Attribute Modification DateTime). */
  at: Date;
  /** Modifying System (LO, ≤ 64 characters). */
  system?: string;
  /**
   * Reason for the Attribute Modification (0400,0565): CORRECT for a user's edit (the default),
   * COERCE when the values come from elsewhere (a gatekeeper writing an order's attributes).
   */
  reason?: 'CORRECT' | 'COERCE';
}

/** DICOM DT in UTC: YYYYMMDDHHMMSS.FFFFFF+0000. */
function dicomDateTime(at: Date): string {
  const iso = at.toISOString(); // 2026-11-22T22:15:03.123Z
  return `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}.${iso.slice(20, 23)}000+0000`;
}

function element(vr: string, value: string): { vr: string; Value: unknown[] } {
  if (value === '') return { vr, Value: [] };
  // dcmjs writes a PN from its { Alphabetic } form.
  return { vr, Value: [vr === 'PN' ? { Alphabetic: value } : value] };
}

/**
 * The file with `changes` applied and the old values recorded; null when the file already holds
 * every new value (nothing to write). Throws if the bytes are not a readable Part-10 file.
 */
export function modifyAttributes(
  bytes: Uint8Array,
  changes: Partial<Record<EditableAttribute, string>>,
  options: ModifyOptions,
): Uint8Array | null {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const dicom = dcmjs.data.DicomMessage.readFile(buffer, { untilTag: undefined });
  const dataset = dicom.dict;
  const previous: DenaturalizedDataset = {};
  let changed = false;
  for (const [keyword, value] of Object.entries(changes) as [EditableAttribute, string][]) {
    const { tag, vr } = EDITABLE_ATTRIBUTES[keyword];
    const old = dataset[tag];
    if (textOf(old) === value) continue;
    changed = true;
    // An attribute absent before is recorded as present with no value (C.12.1.1.9 semantics).
    previous[tag] = old ? { vr: old.vr, Value: old.Value } : { vr, Value: [] };
    dataset[tag] = element(old?.vr ?? vr, value);
  }
  if (!changed) return null;

  const item: DenaturalizedDataset = {
    [MODIFIED_ATTRIBUTES_SEQUENCE]: { vr: 'SQ', Value: [previous] },
    [ATTRIBUTE_MODIFICATION_DATETIME]: { vr: 'DT', Value: [dicomDateTime(options.at)] },
    [MODIFYING_SYSTEM]: { vr: 'LO', Value: [(options.system ?? IMPLEMENTATION_VERSION_NAME).slice(0, 64)] },
    [SOURCE_OF_PREVIOUS_VALUES]: { vr: 'LO', Value: [] },
    [REASON_FOR_MODIFICATION]: { vr: 'CS', Value: [options.reason ?? 'CORRECT'] },
  };
  const existing = dataset[ORIGINAL_ATTRIBUTES_SEQUENCE];
  dataset[ORIGINAL_ATTRIBUTES_SEQUENCE] = {
    vr: 'SQ',
    Value: [...(existing?.Value ?? []), item],
  };
  return new Uint8Array(dicom.write());
}

/** The text of a string or PN element as the index stores it ('' when absent or empty). */
function textOf(el: { vr: string; Value: unknown[] } | undefined): string {
  const first = el?.Value?.[0];
  if (first === undefined || first === null) return '';
  if (typeof first === 'object') return String((first as { Alphabetic?: string }).Alphabetic ?? '');
  return typeof first === 'string' || typeof first === 'number' ? String(first) : '';
}
