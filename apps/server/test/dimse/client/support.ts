import fs from 'node:fs';
import path from 'node:path';
import { generateStudySpecs, writeStudyFiles } from '../../../src/dicom/generate.js';
import type { StudySpec } from '../../../src/dicom/generate.js';
import { buildInstance } from '../../../src/dicom/write.js';

/** Our AE title as Orthanc knows it. */
export const INBOX_AE = 'INBOX';

/** Writes every instance of `spec` under `dir`; answers the file paths. */
export function writeStudy(
  dir: string,
  spec: StudySpec,
  size: { rows?: number; columns?: number } = {},
): string[] {
  fs.mkdirSync(dir, { recursive: true });
  return writeStudyFiles(spec, size).map((file) => {
    const filePath = path.join(dir, `${file.sopInstanceUid}.dcm`);
    fs.writeFileSync(filePath, file.bytes);
    return filePath;
  });
}

/** `count` studies of one small instance each (8×8), all of patient `patientId`, under `dir`. */
export function writeOneInstanceStudies(
  dir: string,
  count: number,
  seed: number,
  patientId: string,
): StudySpec[] {
  fs.mkdirSync(dir, { recursive: true });
  const specs = generateStudySpecs(count, seed, { now: new Date('2026-01-01T00:00:00Z') });
  for (const spec of specs) {
    const series = spec.series[0]!;
    const bytes = buildInstance({
      ...spec,
      patientId,
      seriesInstanceUid: series.seriesInstanceUid,
      seriesNumber: 1,
      seriesDescription: series.seriesDescription,
      modality: series.modality,
      bodyPart: series.bodyPart,
      sopInstanceUid: `${series.seriesInstanceUid}.1`,
      instanceNumber: 1,
      rows: 8,
      columns: 8,
    });
    fs.writeFileSync(path.join(dir, `${spec.studyInstanceUid}.dcm`), bytes);
  }
  return specs;
}

/** A generated study with at least `series` series. */
export function studyWithSeries(seed: number, series: number): StudySpec {
  for (const spec of generateStudySpecs(200, seed, { now: new Date('2026-01-01T00:00:00Z') })) {
    if (spec.series.length >= series) return spec;
  }
  throw new Error(`no generated study with ${series} series`);
}
