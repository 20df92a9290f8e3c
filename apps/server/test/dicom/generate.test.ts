/** The demo/benchmark generator: reproducible, plausible, valid, cheap, and writable as real files. */
import { describe, expect, it } from 'vitest';
import {
  generateStudySpecs,
  instanceCount,
  instanceUid,
  studySpecAt,
  writeStudyFiles,
} from '../../src/dicom/generate.js';
import { parseDicomHeader } from '../../src/dicom/parse.js';
import { isValidUid } from '../../src/dicom/uid.js';

const NOW = new Date('2025-06-15T12:00:00Z');
const specs = generateStudySpecs(3000, 1234, { now: NOW });

const DESCRIPTION_PREFIX: Record<string, RegExp> = {
  CT: /^CTA? /,
  MR: /^MRI /,
  CR: /^XR /,
  DX: /^XR /,
  US: /^US /,
  MG: /^MAMMO /,
  PT: /^PET/,
  NM: /^NM /,
  XA: /^XA /,
};

describe('generateStudySpecs', () => {
  it('is reproducible for a seed and differs between seeds', () => {
    expect(generateStudySpecs(50, 1234, { now: NOW })).toEqual(specs.slice(0, 50));
    const other = generateStudySpecs(50, 1235, { now: NOW });
    expect(other.map((s) => s.studyInstanceUid)).not.toEqual(
      specs.slice(0, 50).map((s) => s.studyInstanceUid),
    );
  });

  it('gives study N independently of how many are generated (studySpecAt)', () => {
    expect(studySpecAt(1234, 2999, NOW)).toEqual(specs[2999]);
    expect(generateStudySpecs(10, 1234, { now: NOW })[7]).toEqual(specs[7]);
  });

  it('fills every study with plausible patient and study values', () => {
    const earliest = new Date(NOW.getTime() - 730 * 86_400_000)
      .toISOString()
      .slice(0, 10)
      .replaceAll('-', '');
    const today = NOW.toISOString().slice(0, 10).replaceAll('-', '');
    for (const s of specs) {
      expect(s.patientName).toMatch(/^[A-Z]+\^[A-Z]+$/);
      expect(s.patientId).toMatch(/^MRN\d{10}$/);
      expect(['M', 'F', 'O']).toContain(s.patientSex);
      expect(s.patientBirthDate >= '19300101' && s.patientBirthDate <= '20201231').toBe(true);
      expect(s.studyDate >= earliest && s.studyDate <= today).toBe(true);
      expect(s.studyTime).toMatch(/^(0[7-9]|1\d)[0-5]\d[0-5]\d$/);
      expect(s.patientAge).toMatch(/^\d{3}[YMD]$/);
      expect(s.studyDescription).toMatch(DESCRIPTION_PREFIX[s.modality]!);
      expect(s.referringPhysician).toMatch(/^[A-Z]+\^[A-Z]+$/);
      expect(s.institutionName).not.toBe('');
      expect(s.series.length).toBeGreaterThanOrEqual(1);
      expect(s.series.length).toBeLessThanOrEqual(4);
      for (const series of s.series) {
        expect(series.instanceCount).toBeGreaterThanOrEqual(1);
        expect(series.instanceCount).toBeLessThanOrEqual(6);
        expect(series.modality).toBe(s.modality);
        expect(series.seriesInstanceUid.startsWith(`${s.studyInstanceUid}.`)).toBe(true);
      }
    }
  });

  it('varies names, sexes, modalities and dates across the set', () => {
    const distinct = <T>(values: T[]): number => new Set(values).size;
    expect(distinct(specs.map((s) => s.patientName.split('^')[0]))).toBeGreaterThanOrEqual(55);
    expect(distinct(specs.map((s) => s.patientName.split('^')[1]))).toBeGreaterThanOrEqual(55);
    expect(new Set(specs.map((s) => s.patientSex))).toEqual(new Set(['M', 'F', 'O']));
    expect(new Set(specs.map((s) => s.modality))).toEqual(new Set(Object.keys(DESCRIPTION_PREFIX)));
    expect(distinct(specs.map((s) => s.studyDate))).toBeGreaterThan(500);
    expect(distinct(specs.map((s) => s.series.length))).toBe(4);
  });

  it('makes valid, unique UIDs and accession numbers', () => {
    const uids = specs.flatMap((s) => [
      s.studyInstanceUid,
      ...s.series.flatMap((series) => [
        series.seriesInstanceUid,
        ...Array.from({ length: series.instanceCount }, (_, i) => instanceUid(series, i + 1)),
      ]),
    ]);
    for (const uid of uids) expect(isValidUid(uid), uid).toBe(true);
    expect(new Set(uids).size).toBe(uids.length);
    expect(new Set(specs.map((s) => s.accessionNumber)).size).toBe(specs.length);
  });

  it('gives returning patients the same demographics in every study', () => {
    const byId = new Map<string, string>();
    let repeats = 0;
    for (const s of specs) {
      const who = `${s.patientName}|${s.patientSex}|${s.patientBirthDate}`;
      const seen = byId.get(s.patientId);
      if (seen !== undefined) {
        repeats++;
        expect(who).toBe(seen);
      }
      byId.set(s.patientId, who);
    }
    expect(repeats).toBeGreaterThan(specs.length / 3);
  });

  it('is cheap enough for a million-study benchmark (pure data, no pixels)', () => {
    const started = performance.now();
    let images = 0;
    for (let i = 0; i < 100_000; i++) images += instanceCount(studySpecAt(7, i, NOW));
    // ~0.3 s here; 10 s leaves room for slow CI while still catching pixel data creeping in.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(images).toBeGreaterThan(100_000);
    expect(JSON.stringify(specs[0]).length).toBeLessThan(2000);
  });
});

describe('writeStudyFiles', () => {
  it('writes one parseable file per instance, carrying the study values', () => {
    const spec = specs.find((s) => instanceCount(s) >= 3 && s.series.length >= 2)!;
    const files = writeStudyFiles(spec, { rows: 16, columns: 16 });
    expect(files).toHaveLength(instanceCount(spec));

    const parsed = files.map((f) => ({ uid: f.sopInstanceUid, header: parseDicomHeader(f.bytes) }));
    for (const { uid, header } of parsed) {
      expect(header.sopInstanceUid).toBe(uid);
      expect(header).toMatchObject({
        studyInstanceUid: spec.studyInstanceUid,
        patientName: spec.patientName,
        patientId: spec.patientId,
        patientBirthDate: spec.patientBirthDate,
        patientAge: spec.patientAge,
        accessionNumber: spec.accessionNumber,
        studyDate: spec.studyDate,
        studyTime: spec.studyTime,
        modality: spec.modality,
        rows: 16,
      });
    }
    const first = spec.series[0]!;
    expect(parsed[0]!.header).toMatchObject({
      seriesInstanceUid: first.seriesInstanceUid,
      seriesNumber: 1,
      seriesDescription: first.seriesDescription,
      instanceNumber: 1,
    });
    expect(new Set(parsed.map((p) => p.header.seriesInstanceUid)).size).toBe(spec.series.length);
  });
});
