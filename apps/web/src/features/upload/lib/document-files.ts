import { WRAP_MAX_FILE_BYTES } from '@imaging-inbox/contract';

/**
 * Documents: the PDF, JPEG, PNG and MP4 files the server wraps into DICOM with a patient and exam
 * form. Told apart by type or name here (the server reads the bytes again), the same way wherever
 * they are found: picked in the non-DICOM wizard, picked on the request-link page, or inside a ZIP
 * (where an entry has a name only). No React here: the media scan runs this in its worker.
 */
const NAMES = /\.(pdf|jpe?g|png|mp4|m4v)$/i;
const TYPES = ['application/pdf', 'image/jpeg', 'image/png', 'video/mp4', 'video/x-m4v'];

/** Whether a file (or a ZIP entry, which has a name only) is one the server wraps. */
export function isDocument(file: { name: string; type?: string }): boolean {
  return TYPES.includes(file.type ?? '') || NAMES.test(file.name);
}

/** Why a picked file cannot be sent as a document, or null when it can. */
export function fileProblem(file: File): 'wrapFileTypes' | 'wrapFileTooLarge' | null {
  if (!isDocument(file)) return 'wrapFileTypes';
  if (file.size > WRAP_MAX_FILE_BYTES) return 'wrapFileTooLarge';
  return null;
}

/**
 * The name a document is sent under: a ZIP entry's File is named by its path in the selection
 * (`exams.zip/letters/letter.pdf`), which the list shows; the exam gets the file's own name.
 */
export function documentName(file: File): string {
  return file.name.slice(file.name.lastIndexOf('/') + 1);
}
