/**
 * De-identifies every pydicom sample file our parser reads, and the demo world's generated studies,
 * then scans each copy (PS3.15 Annex E, Basic Profile, with and without options):
 * - no value of an attribute the profile removes, empties, replaces or remaps (X/Z/D/U) survives
 *   anywhere in the copy: in any element at any depth, in the file meta, or anywhere in its bytes;
 * - no private, curve or overlay attribute is left;
 * - the copy says what was done (0012,0062/0063/0064) and its meta names the new SOP Instance UID;
 * - two runs with the same account secret give the same bytes, another secret other pseudonyms;
 * - with Retain Longitudinal Temporal Information, each date moved back by the patient's one offset;
 * - dciodvfy finds no error in the copy that it did not find in the source.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dcmjs from 'dcmjs';
import type { DenaturalizedDataset, DicomElement } from 'dcmjs';
import { afterAll, describe, expect, it } from 'vitest';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/generate.js';
import { parseDicomHeader } from '../../src/dicom/parse.js';
import { annexEAction, type DeidentificationOption } from '../../src/modules/privacy/annex-e.js';
import { shiftDA } from '../../src/modules/privacy/dates.js';
import {
  DeidentificationError,
  deidentify,
  interpretUn,
  valueTexts,
  type DeidentificationProfile,
} from '../../src/modules/privacy/deidentify.js';
import { hasTool, PYDICOM_DIR } from '../dicom/support.js';

dcmjs.log.setLevel('silent');
const SECRET_A = Buffer.from('account-a-secret-0123456789abcdef');
const SECRET_B = Buffer.from('account-b-secret-fedcba9876543210');
const MAX_BYTES = 64 * 1024 * 1024;
const BASIC: DeidentificationProfile = { options: [], rules: [] };
const TEACHING: DeidentificationProfile = { options: ['cleanDescriptors'], rules: [] };
const LONGITUDINAL: DeidentificationProfile = {
  options: ['retainLongitudinalModifiedDates', 'cleanDescriptors', 'cleanStructuredContent'],
  rules: [],
};
/** Shorter texts ("M", "1", "CT") occur in any file by chance; UIDs are compared whole. */
const MIN_SCANNED_CHARS = 4;
const DUMMIES = 'anonymous^ anonymized 19000101000000';

function corpus(): Array<{ name: string; bytes: Uint8Array }> {
  const found: Array<{ name: string; bytes: Uint8Array }> = [];
  for (const dir of ['test_files', 'charset_files']) {
    const path = join(PYDICOM_DIR, dir);
    if (!existsSync(path)) continue;
    for (const name of readdirSync(path).sort()) {
      if (!name.endsWith('.dcm')) continue;
      const bytes = new Uint8Array(readFileSync(join(path, name)));
      try {
        parseDicomHeader(bytes);
      } catch {
        continue; // only files our parser reads are stored, so only those are ever de-identified
      }
      found.push({ name: `${dir}/${name}`, bytes });
    }
  }
  const specs = generateStudySpecs(6, 20261202, { now: new Date('2026-12-02T08:00:00Z') });
  for (const spec of specs) {
    for (const file of writeStudyFiles(spec, { rows: 16, columns: 16 })) {
      found.push({ name: `demo/${spec.accessionNumber}/${file.sopInstanceUid}`, bytes: file.bytes });
    }
  }
  return found;
}

function read(bytes: Uint8Array) {
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return dcmjs.data.DicomMessage.readFile(buffer, { untilTag: undefined });
}

function* walk(dataset: DenaturalizedDataset, depth = 0): Generator<[string, DicomElement]> {
  for (const [key, read] of Object.entries(dataset)) {
    const tag = key.toUpperCase();
    const element = interpretUn(tag, read);
    yield [tag, element];
    if (element.vr === 'SQ' && depth < 32) {
      for (const item of element.Value ?? []) yield* walk(item as DenaturalizedDataset, depth + 1);
    }
  }
}

const TEXT_OR_DATE = new Set([
  'PN',
  'LO',
  'SH',
  'ST',
  'LT',
  'UT',
  'UC',
  'AE',
  'DA',
  'DT',
  'TM',
  'CS',
  'AS',
  'DS',
  'IS',
]);

/**
 * The source's values the profile must not let through: text of X/Z/D attributes and every remapped
 * UID. `scanned` gathers the tags whose values were looked for, for the run's report.
 */
function protectedValues(
  source: DenaturalizedDataset,
  options: ReadonlySet<DeidentificationOption>,
  scanned?: Set<string>,
) {
  const texts = new Set<string>();
  const uids = new Set<string>();
  const kept = new Set<string>();
  for (const [tag, element] of walk(source)) {
    const action = annexEAction(tag, options);
    const values = valueTexts(element)
      .map((v) => v.replace(/\0/g, '').trim())
      .filter(Boolean);
    if (action === 'U' || (element.vr === 'UI' && action === null)) {
      // A malformed "UID" such as "0" (one sample file has it) is not an identifier.
      for (const v of values)
        if (!v.startsWith('1.2.840.10008.') && action !== null && /^\d+(\.\d+){3,}$/.test(v)) {
          uids.add(v);
          scanned?.add(tag);
        }
    }
    if ((action === 'X' || action === 'Z' || action === 'D') && TEXT_OR_DATE.has(element.vr)) {
      for (const v of values)
        if (v.length >= MIN_SCANNED_CHARS) {
          texts.add(v.toLowerCase());
          scanned?.add(tag);
        }
    }
    if (action === null || action === 'K') for (const v of values) kept.add(v.toLowerCase());
  }
  // A value the profile keeps elsewhere in the file (an institution named in the manufacturer)
  // is not the removed attribute leaking.
  for (const text of texts) for (const v of kept) if (v.includes(text)) texts.delete(text);
  // Nor is a source value that is part of the dummies and pseudonyms every copy carries ("ANON").
  for (const v of texts) if (DUMMIES.includes(v)) texts.delete(v);
  return { texts, uids };
}

function leaks(
  copy: ReturnType<typeof read>,
  raw: Uint8Array,
  source: DenaturalizedDataset,
  options: DeidentificationOption[],
  scanned?: Set<string>,
) {
  const { texts, uids } = protectedValues(source, new Set(options), scanned);
  const found: string[] = [];
  for (const [tag, element] of [...walk(copy.meta), ...walk(copy.dict)]) {
    for (const value of valueTexts(element)) {
      const v = value.replace(/\0/g, '').trim();
      if (uids.has(v)) found.push(`${tag} keeps UID ${v}`);
      const lower = v.toLowerCase();
      for (const text of texts) if (lower.includes(text)) found.push(`${tag} contains "${text}"`);
    }
  }
  const bytes = Buffer.from(raw).toString('latin1').toLowerCase();
  for (const uid of uids) if (bytes.includes(uid)) found.push(`bytes contain UID ${uid}`);
  for (const text of texts)
    if (text.length >= 6 && bytes.includes(text)) found.push(`bytes contain "${text}"`);
  return found;
}

const files = existsSync(PYDICOM_DIR) ? corpus() : [];
const tmp = mkdtempSync(join(tmpdir(), 'deid-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** `ggggeeee Keyword` (dcmjs's dictionary), for the report of what was scanned. */
function attributeName(tag: string): string {
  const entry = dcmjs.data.DicomMetaDictionary.dictionary[`(${tag.slice(0, 4)},${tag.slice(4)})`];
  return `${tag} ${entry?.name ?? '?'}`;
}

/**
 * dciodvfy's error lines with values masked, so a remapped UID or a shifted date is the same error;
 * null when it did not check the file (it aborts on a few deliberately broken samples, or said
 * nothing): such a run must never read as "no error".
 */
function iodErrors(bytes: Uint8Array, name: string): string[] | null {
  const path = join(tmp, name.replace(/[^A-Za-z0-9.]/g, '_'));
  writeFileSync(path, bytes);
  const result = spawnSync('dciodvfy', [path], { encoding: 'utf8', timeout: 60_000 });
  const output = `${result.stdout}${result.stderr}`;
  if (result.error || result.signal || !output.trim()) return null;
  return output
    .split('\n')
    .filter((line) => line.startsWith('Error'))
    .map((line) =>
      line.replace(/[0-9.]{2,}/g, '#').replace(/<[^>]*>/g, (m) => (m.includes('#') ? '<#>' : m)),
    );
}

function newErrors(before: string[], after: string[]): string[] {
  const remaining = [...before];
  return after.filter((line) => {
    const at = remaining.indexOf(line);
    if (at === -1) return true;
    remaining.splice(at, 1);
    return false;
  });
}

describe.skipIf(files.length === 0)('de-identification of the pydicom corpus and the demo studies', () => {
  const results = new Map<string, ReturnType<typeof deidentify> | DeidentificationError>();

  it.each([
    ['the Basic Profile', BASIC],
    ['Basic Profile + Clean Descriptors (Teaching Files)', TEACHING],
    ['Basic Profile + longitudinal dates + clean descriptors and structured content', LONGITUDINAL],
  ])(
    '%s leaves none of the protected values anywhere',
    (_label, profile) => {
      let scanned = 0;
      const refused: string[] = [];
      const attributes = new Set<string>();
      for (const { name, bytes } of files) {
        const before = Buffer.from(bytes);
        let result: ReturnType<typeof deidentify>;
        try {
          result = deidentify({ bytes, profile, secret: SECRET_A, maxBytes: MAX_BYTES });
        } catch (error) {
          // dcmjs cannot read a few deliberately odd files: a clear refusal, never a partial copy.
          expect(error, name).toBeInstanceOf(DeidentificationError);
          refused.push(name);
          continue;
        }
        expect(Buffer.from(bytes).equals(before), `${name} source untouched`).toBe(true);
        if (profile === BASIC) results.set(name, result);
        const source = read(bytes);
        const copy = read(result.bytes);
        expect(leaks(copy, result.bytes, source.dict, [...profile.options], attributes), name).toEqual([]);
        for (const [tag] of [...walk(copy.dict), ...walk(copy.meta)]) {
          expect(parseInt(tag[3]!, 16) % 2, `${name} private ${tag}`).toBe(0);
          expect(tag, name).not.toMatch(/^(50|60)/);
        }
        expect(copy.dict['00120062']?.Value).toEqual(['YES']);
        expect(copy.dict['00120063']?.Value?.[0]).toBe('Basic Application Confidentiality Profile');
        const codes = (copy.dict['00120064']?.Value as DenaturalizedDataset[]).map(
          (item) => item['00080100']?.Value[0],
        );
        expect(codes[0]).toBe('113100');
        if (profile.options.includes('cleanDescriptors')) expect(codes).toContain('113105');
        expect(copy.meta['00020003']?.Value[0]).toBe(result.sopInstanceUid);
        expect(copy.dict['00080018']?.Value[0]).toBe(result.sopInstanceUid);
        if (source.dict['00100020']) expect(copy.dict['00100020']?.Value[0]).toBe(result.patientId);
        scanned++;
      }
      console.info(
        `${_label}: ${scanned} files scanned (${files.filter((f) => f.name.startsWith('demo/')).length} demo), nothing found; refused: ${refused.join(', ') || 'none'}`,
      );
      console.info(
        `${_label}: the ${attributes.size} attributes whose source values were looked for: ${[...attributes]
          .sort()
          .map(attributeName)
          .join(', ')}`,
      );
      expect(scanned).toBeGreaterThan(60);
    },
    180_000,
  );

  it('gives the same pseudonyms on a second run and other ones under another account', () => {
    for (const { name, bytes } of files) {
      const first = results.get(name);
      if (!first || first instanceof Error) continue;
      const again = deidentify({ bytes, profile: BASIC, secret: SECRET_A, maxBytes: MAX_BYTES });
      expect(Buffer.from(again.bytes).equals(Buffer.from(first.bytes)), name).toBe(true);
      const other = deidentify({ bytes, profile: BASIC, secret: SECRET_B, maxBytes: MAX_BYTES });
      expect(other.patientId, name).not.toBe(first.patientId);
      expect(other.sopInstanceUid, name).not.toBe(first.sopInstanceUid);
      if (first.studyInstanceUid) expect(other.studyInstanceUid, name).not.toBe(first.studyInstanceUid);
    }
    // The files of one demo study: one patient, one pseudonym, one study UID.
    const demo = [...results.entries()].filter(([name]) => name.startsWith('demo/'));
    const byStudy = new Map<string, Set<string>>();
    for (const [name, result] of demo) {
      const study = name.split('/')[1]!;
      const seen = byStudy.get(study) ?? new Set<string>();
      seen.add(
        `${(result as ReturnType<typeof deidentify>).patientId} ${(result as ReturnType<typeof deidentify>).studyInstanceUid}`,
      );
      byStudy.set(study, seen);
    }
    expect(byStudy.size).toBe(6);
    for (const seen of byStudy.values()) expect(seen.size).toBe(1);
  }, 180_000);

  it('moves every date of a patient back by that patient’s one offset', () => {
    const shifts = new Map<string, number>();
    let dated = 0;
    for (const { name, bytes } of files) {
      let result: ReturnType<typeof deidentify>;
      try {
        result = deidentify({ bytes, profile: LONGITUDINAL, secret: SECRET_A, maxBytes: MAX_BYTES });
      } catch {
        continue;
      }
      const source = read(bytes).dict;
      const copy = read(result.bytes).dict;
      const patient = `${valueTexts(source['00100020'] ?? { vr: 'LO', Value: [] })[0] ?? ''}`;
      if (patient) {
        const known = shifts.get(patient);
        if (known !== undefined) expect(result.dateShiftDays, name).toBe(known);
        shifts.set(patient, result.dateShiftDays!);
      }
      for (const tag of ['00080020', '00080021', '00080022', '00080023']) {
        const original = source[tag]?.Value?.[0];
        if (typeof original !== 'string' || !/^\d{8}$/.test(original.trim())) continue;
        expect(copy[tag]?.Value[0], `${name} ${tag}`).toBe(shiftDA(original.trim(), result.dateShiftDays!));
        dated++;
      }
      expect(copy['00280303']?.Value).toEqual(['MODIFIED']);
    }
    expect(dated).toBeGreaterThan(50);
  }, 180_000);

  it.skipIf(!hasTool('dciodvfy'))(
    'dciodvfy finds no error in a copy that it did not find in its source',
    () => {
      const found: string[] = [];
      const unchecked: string[] = [];
      let compared = 0;
      let sourceErrors = 0;
      for (const [name, result] of results) {
        if (result instanceof Error) continue;
        const source = files.find((f) => f.name === name)!;
        const before = iodErrors(source.bytes, `src-${name}`);
        const after = iodErrors(result.bytes, `out-${name}`);
        if (before === null) {
          // dciodvfy cannot check the source itself: nothing to compare the copy with.
          unchecked.push(`${name}${after === null ? '' : ' (the copy checks)'}`);
          continue;
        }
        if (after === null) {
          found.push(`${name}: dciodvfy checks the source but not the copy`);
          continue;
        }
        for (const line of newErrors(before, after)) found.push(`${name}: ${line}`);
        compared++;
        sourceErrors += before.length;
      }
      console.info(
        `dciodvfy: ${compared} copies compared with their sources (the sources: ${sourceErrors} errors), ` +
          `${found.length} new errors; sources dciodvfy cannot check: ${unchecked.join(', ') || 'none'}`,
      );
      // The Basic Profile run above filled `results`: every copy it made was compared.
      expect(compared).toBeGreaterThan(60);
      expect(found).toEqual([]);
    },
    300_000,
  );
});
