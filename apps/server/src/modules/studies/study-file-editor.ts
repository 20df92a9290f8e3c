import type { Updateable } from 'kysely';
import type { StudyTable } from '../../db/schema.js';
import type { EditableAttribute } from '../../dicom/modify.js';
import { modifyAttributes } from '../../dicom/modify.js';
import { DomainError } from '../../domain/errors.js';
import type { ReplacedFile, StudyFilesRepository } from './study-files.repository.js';
import type { BlobCollector } from '../../storage/blob-collector.js';
import type { BlobStore } from '../../storage/blob-store.js';

/** The index fields study/set may change that are also attributes of every file of the study. */
export const FILE_ATTRIBUTES: Record<string, EditableAttribute> = {
  patientid: 'PatientID',
  patient_name: 'PatientName',
  patient_sex: 'PatientSex',
  patient_birth_date: 'PatientBirthDate',
  accession_number: 'AccessionNumber',
  study_description: 'StudyDescription',
  referring_physician: 'ReferringPhysicianName',
  study_date: 'StudyDate',
  study_time: 'StudyTime',
};

export interface StudyFileEditorDeps {
  files: StudyFilesRepository;
  blobs: BlobStore;
  collector: BlobCollector;
}

/**
 * Applies an edit to the stored DICOM files as well as the index (Edit MRN, study/set): each file
 * is rewritten into a new content-addressed blob with the old values kept in its Original
 * Attributes Sequence, then the instances point at the new blobs in the same transaction as the
 * index change. Old blobs no instance still uses (a shared copy may) are removed afterwards; if
 * anything fails before the commit, the new blobs are removed and nothing changed.
 *
 * Files are rewritten one at a time (each read whole, as dcmjs parses it), so memory is bounded
 * by the largest file, not the study.
 */
export class StudyFileEditor {
  constructor(private readonly deps: StudyFileEditorDeps) {}

  async apply(
    studyUuid: string,
    changes: Updateable<StudyTable>,
    at: Date,
    customFields: Record<string, string | null> = {},
    reason: 'CORRECT' | 'COERCE' = 'CORRECT',
  ): Promise<{ files: number }> {
    const attributes: Partial<Record<EditableAttribute, string>> = {};
    for (const [field, keyword] of Object.entries(FILE_ATTRIBUTES)) {
      const value = (changes as Record<string, unknown>)[field];
      if (typeof value === 'string') attributes[keyword] = value;
    }
    const stored = Object.keys(attributes).length ? await this.deps.files.files(studyUuid) : [];
    const replaced: ReplacedFile[] = [];
    try {
      for (const file of stored) {
        let bytes: Buffer;
        try {
          bytes = await this.deps.blobs.read(file.blob_key);
        } catch {
          throw new DomainError('INTERNAL', 'stored file missing');
        }
        let rewritten: Uint8Array | null;
        try {
          rewritten = modifyAttributes(bytes, attributes, { at, reason });
        } catch {
          throw new DomainError('INTERNAL', 'stored file is not readable DICOM');
        }
        if (!rewritten) continue;
        const temp = await this.deps.blobs.writeTemp(rewritten);
        const blobKey = await this.deps.blobs.commit(temp);
        replaced.push({ uuid: file.uuid, blobKey, sha256: temp.sha256, size: temp.size });
      }
      await this.deps.files.replace(studyUuid, changes, replaced, customFields);
    } catch (error) {
      await this.deps.collector.removeUnreferenced(replaced.map((r) => r.blobKey));
      throw error;
    }
    const before = new Map(stored.map((f) => [f.uuid, f.blob_key]));
    await this.deps.collector.removeUnreferenced(replaced.map((r) => before.get(r.uuid)!));
    return { files: replaced.length };
  }
}
