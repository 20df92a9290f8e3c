/**
 * Deterministic demo and benchmark studies.
 *
 * Two layers on purpose: study *specs* are pure data (no pixels, no UIDs per instance) so a benchmark can
 * make a million of them in seconds, and writeStudyFiles turns one spec into real DICOM files when a demo
 * or test needs bytes. Each study draws from its own PRNG seeded by (seed, index), so study N is the
 * same whether 10 or 1,000,000 are generated, and callers can stream with studySpecAt instead of
 * holding an array.
 */
import {
  FEMALE_FIRST_NAMES,
  INSTITUTIONS,
  LAST_NAMES,
  MALE_FIRST_NAMES,
  MODALITY_WEIGHTS,
  type CatalogModality,
  PROCEDURES,
  REFERRING_PHYSICIANS,
} from './catalog.js';
import { dicomAge, formatDA, formatTM } from './dates.js';
import { Prng } from './prng.js';
import type { Modality } from './sop-classes.js';
import { uidFromInteger } from './uid.js';
import { buildInstance, type InstanceSpec } from './write.js';

export interface SeriesSpec {
  /** `<studyInstanceUid>.<seriesNumber>`. */
  seriesInstanceUid: string;
  seriesNumber: number;
  seriesDescription: string;
  modality: Modality;
  bodyPart: string;
  /** Instances are numbered 1..instanceCount; their UIDs come from instanceUid(). */
  instanceCount: number;
}

export interface StudySpec {
  studyInstanceUid: string;
  /** DICOM PN `LAST^FIRST`. */
  patientName: string;
  patientId: string;
  patientSex: 'M' | 'F' | 'O';
  /** YYYYMMDD. */
  patientBirthDate: string;
  /** AS at the study date, e.g. `045Y`. */
  patientAge: string;
  accessionNumber: string;
  /** YYYYMMDD (UTC). */
  studyDate: string;
  /** HHMMSS (UTC). */
  studyTime: string;
  studyDescription: string;
  modality: Modality;
  referringPhysician: string;
  institutionName: string;
  series: SeriesSpec[];
}

export interface GenerateOptions {
  /** Study dates fall in the two years before this instant. Default: the current time (pass it to be reproducible). */
  now?: Date;
}

const DAY_MS = 86_400_000;
const BIRTH_FROM = Date.UTC(1930, 0, 1);
const BIRTH_TO = Date.UTC(2020, 11, 31);

/** `count` studies for `seed`; the same (count, seed, now) always gives the same output. */
export function generateStudySpecs(count: number, seed: number, options: GenerateOptions = {}): StudySpec[] {
  const now = options.now ?? new Date();
  const studies: StudySpec[] = new Array<StudySpec>(count);
  for (let index = 0; index < count; index++) studies[index] = studySpecAt(seed, index, now);
  return studies;
}

/**
 * Study number `index` of the set for `seed`. Patients are shared by about 2.5 studies each (patient
 * ≈ index × 0.4, jittered), so search results show one patient with several studies as a real archive
 * does, without the patient choice depending on how many studies are generated.
 */
export function studySpecAt(seed: number, index: number, now: Date): StudySpec {
  const random = new Prng(mix(seed, index));
  const patient = patientAt(seed, Math.floor(index * 0.4) + random.int(0, 3));

  const modality = weightedModality(random);
  const procedure = random.pick(PROCEDURES[modality]);
  // Spread over the last 730 days, at a time of day within 07:00–19:59 UTC.
  const day = Math.floor(now.getTime() / DAY_MS) - random.int(0, 729);
  const studyAt = new Date(day * DAY_MS + random.int(7 * 3600, 20 * 3600 - 1) * 1000);
  const studyDate = formatDA(studyAt);
  const studyInstanceUid = uidFromInteger(random.bits128());

  const seriesCount = random.int(1, Math.min(4, procedure.series.length));
  const series: SeriesSpec[] = [];
  for (let n = 1; n <= seriesCount; n++) {
    series.push({
      seriesInstanceUid: `${studyInstanceUid}.${n}`,
      seriesNumber: n,
      seriesDescription: procedure.series[n - 1] ?? `SERIES ${n}`,
      modality,
      bodyPart: procedure.bodyPart,
      instanceCount: random.int(1, 6),
    });
  }

  return {
    studyInstanceUid,
    ...patient,
    patientAge: dicomAge(patient.patientBirthDate, studyDate),
    // Unique within a seed: seed tag + study index (SH allows 16 characters; this uses 11).
    accessionNumber: `A${String(seed % 1000).padStart(3, '0')}${String(index).padStart(7, '0')}`,
    studyDate,
    studyTime: formatTM(studyAt),
    studyDescription: procedure.description,
    modality,
    referringPhysician: random.pick(REFERRING_PHYSICIANS),
    institutionName: random.pick(INSTITUTIONS),
    series,
  };
}

/** SOP Instance UID of instance `instanceNumber` (1-based) of a series: `<seriesUid>.<n>` (≤ 48 chars). */
export function instanceUid(series: SeriesSpec, instanceNumber: number): string {
  return `${series.seriesInstanceUid}.${instanceNumber}`;
}

/** Total number of instances in a study (its image count). */
export function instanceCount(study: StudySpec): number {
  return study.series.reduce((sum, s) => sum + s.instanceCount, 0);
}

/** Real DICOM files for every instance of the study, in series then instance order. */
export function writeStudyFiles(
  spec: StudySpec,
  size: { rows?: number; columns?: number } = {},
): Array<{ sopInstanceUid: string; bytes: Uint8Array }> {
  const files: Array<{ sopInstanceUid: string; bytes: Uint8Array }> = [];
  for (const series of spec.series) {
    for (let n = 1; n <= series.instanceCount; n++) {
      const instance: InstanceSpec = {
        patientName: spec.patientName,
        patientId: spec.patientId,
        patientSex: spec.patientSex,
        patientBirthDate: spec.patientBirthDate,
        patientAge: spec.patientAge,
        studyInstanceUid: spec.studyInstanceUid,
        studyDate: spec.studyDate,
        studyTime: spec.studyTime,
        studyDescription: spec.studyDescription,
        accessionNumber: spec.accessionNumber,
        referringPhysician: spec.referringPhysician,
        institutionName: spec.institutionName,
        seriesInstanceUid: series.seriesInstanceUid,
        seriesNumber: series.seriesNumber,
        seriesDescription: series.seriesDescription,
        modality: series.modality,
        bodyPart: series.bodyPart,
        sopInstanceUid: instanceUid(series, n),
        instanceNumber: n,
        ...size,
      };
      files.push({ sopInstanceUid: instance.sopInstanceUid, bytes: buildInstance(instance) });
    }
  }
  return files;
}

/** Patient number `index` of the pool for `seed`: fixed name, MRN, sex and birth date. */
function patientAt(
  seed: number,
  index: number,
): Pick<StudySpec, 'patientName' | 'patientId' | 'patientSex' | 'patientBirthDate'> {
  // A different stream from the studies' (high bit set) so patient and study draws never coincide.
  const random = new Prng(mix(seed ^ 0x5bd1e995, index));
  const roll = random.next();
  const patientSex = roll < 0.48 ? 'M' : roll < 0.97 ? 'F' : 'O';
  const firstNames =
    patientSex === 'M'
      ? MALE_FIRST_NAMES
      : patientSex === 'F'
        ? FEMALE_FIRST_NAMES
        : random.pick([MALE_FIRST_NAMES, FEMALE_FIRST_NAMES]);
  const birthDay = random.int(BIRTH_FROM / DAY_MS, BIRTH_TO / DAY_MS);
  return {
    patientName: `${random.pick(LAST_NAMES)}^${random.pick(firstNames)}`,
    patientId: `MRN${String(seed % 1000).padStart(3, '0')}${String(index).padStart(7, '0')}`,
    patientSex,
    patientBirthDate: formatDA(new Date(birthDay * DAY_MS)),
  };
}

const MODALITY_WEIGHT_TOTAL = MODALITY_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);

function weightedModality(random: Prng): CatalogModality {
  let roll = random.next() * MODALITY_WEIGHT_TOTAL;
  for (const [modality, weight] of MODALITY_WEIGHTS) {
    roll -= weight;
    if (roll < 0) return modality;
  }
  return 'CT'; // unreachable unless rounding leaves roll at exactly 0
}

/** Combines seed and index into one 32-bit PRNG seed (murmur3 finaliser, so nearby indexes diverge). */
function mix(seed: number, index: number): number {
  let h = (Math.imul(seed | 0, 0x9e3779b1) ^ index) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
