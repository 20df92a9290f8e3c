import type { DicomHeader } from './dicom-header';
import type { MediaProblem, MediaSource } from './media-source';

/** A file the worker read: its place in the scan's sources and its header. */
export interface ParsedFile {
  index: number;
  header: DicomHeader;
}

/** One study found in the picked files, as the Select Exams table shows it. */
export interface FoundStudy {
  studyUid: string;
  patientName: string;
  patientId: string;
  birthDate: string;
  studyDate: string;
  description: string;
  accession: string;
  modalities: string[];
  /** Indexes into the picked files, one per instance (a repeated SOP instance UID counts once). */
  fileIndexes: number[];
  /** The SOP Instance UID of each of those files, in the same order. */
  sopInstanceUids: string[];
  totalSize: number;
}

/**
 * Groups parsed headers into studies by Study Instance UID, in order of first appearance. The first
 * file with a value fills each field; modalities are the sorted set; sizes come from `sizeOf`.
 */
export function groupStudies(parsed: readonly ParsedFile[], sizeOf: (index: number) => number): FoundStudy[] {
  const byUid = new Map<string, FoundStudy & { seen: Set<string>; modalitySet: Set<string> }>();
  for (const { index, header } of parsed) {
    let study = byUid.get(header.studyUid);
    if (!study) {
      study = {
        studyUid: header.studyUid,
        patientName: '',
        patientId: '',
        birthDate: '',
        studyDate: '',
        description: '',
        accession: '',
        modalities: [],
        fileIndexes: [],
        sopInstanceUids: [],
        totalSize: 0,
        seen: new Set(),
        modalitySet: new Set(),
      };
      byUid.set(header.studyUid, study);
    }
    if (study.seen.has(header.sopInstanceUid)) continue;
    study.seen.add(header.sopInstanceUid);
    study.fileIndexes.push(index);
    study.sopInstanceUids.push(header.sopInstanceUid);
    study.totalSize += sizeOf(index);
    if (header.modality) study.modalitySet.add(header.modality);
    study.patientName ||= header.patientName;
    study.patientId ||= header.patientId;
    study.birthDate ||= header.birthDate;
    study.studyDate ||= header.studyDate;
    study.description ||= header.description;
    study.accession ||= header.accession;
  }
  return [...byUid.values()].map(({ seen: _seen, modalitySet, ...study }) => ({
    ...study,
    modalities: [...modalitySet].sort(),
  }));
}

/** What the worker reports for a picked list. */
export interface ScanResult {
  /** Files considered: picked files, with each ZIP counted as its entries. */
  fileCount: number;
  /** Where each DICOM file found lives; `ParsedFile.index` points here. */
  sources: MediaSource[];
  parsed: ParsedFile[];
  /** Files that could not be read at all (permissions, vanished, encrypted or damaged archive). */
  unreadable: number;
  /** Per-file reasons to tell the user (encrypted entry, file missing from a DICOMDIR's disc). */
  problems: MediaProblem[];
  /**
   * Where each document (PDF, JPEG, PNG, MP4: not DICOM, wrapped with a patient form) lives, picked
   * or inside a ZIP; not on a disc whose DICOMDIR governs it (a viewer's icons are not documents).
   */
  documents: MediaSource[];
}

/** The file-processing error of a scan, or null when studies were found (SPEC.md sections 5 and 8). */
export function scanError(
  result: Pick<ScanResult, 'fileCount' | 'parsed' | 'unreadable'>,
  studyCount: number,
): 'uploadNoExams' | 'uploadNoDicom' | 'uploadCannotLoad' | null {
  if (studyCount > 0) return null;
  if (result.fileCount === 0) return 'uploadNoExams';
  if (result.unreadable === result.fileCount) return 'uploadCannotLoad';
  if (result.parsed.length === 0) return 'uploadNoDicom';
  return 'uploadNoExams';
}

/** The files of `studies` to send, one per instance, each with its SOP Instance UID (its resume key). */
export function instancesOf(
  studies: readonly FoundStudy[],
  files: readonly File[],
): { file: File; sopInstanceUid: string }[] {
  return studies.flatMap((study) =>
    study.fileIndexes.map((index, i) => ({ file: files[index]!, sopInstanceUid: study.sopInstanceUids[i]! })),
  );
}
