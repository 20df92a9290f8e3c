import { notFound } from '../domain/errors.js';
import type { DicomwebRepository } from '../repositories/dicomweb.repository.js';
import type { StudiesRepository, StudyRow } from '../repositories/studies.repository.js';
import type { Caller } from './access.js';
import type { StudyNeed } from './study.js';
import { requireStudy, viewableNamespaces } from './study.js';

export interface StudyLookups {
  studies: Pick<StudiesRepository, 'findByUuid' | 'findByUid'>;
  dicomweb: Pick<DicomwebRepository, 'studyByUid'>;
}

/**
 * Finds the study a call names, the three ways calls name one, and answers it only if the policy
 * lets the caller reach it (requireStudy): every route and service that takes a study from a
 * request goes through here, so "a study the caller can see, else NOT_FOUND" is written once.
 */
export class StudyAccess {
  constructor(private readonly repos: StudyLookups) {}

  /** By uuid (api/v3). */
  async byUuid(caller: Caller, uuid: string, need?: StudyNeed): Promise<StudyRow> {
    return requireStudy(caller, await this.repos.studies.findByUuid(uuid), need);
  }

  /**
   * By storage path: its namespace and Study Instance UID (downloads, attachments, the storage-style
   * delete, the viewer token). A phi namespace, when given, must be the storage one: a different
   * one names no study.
   */
  async byStorage(
    caller: Caller,
    namespaceId: string,
    studyUid: string,
    need: StudyNeed = {},
    phiNamespace?: string,
  ): Promise<StudyRow> {
    const unseen = () => need.unseen?.() ?? notFound('study');
    if (phiNamespace && phiNamespace !== namespaceId) throw unseen();
    if (!caller.groups.has(namespaceId)) throw unseen();
    const [row] = await this.repos.studies.findByUid(studyUid, [namespaceId]);
    return requireStudy(caller, row, need);
  }

  /**
   * By Study Instance UID alone (DICOMweb): the oldest live copy among the namespaces the caller
   * may view; a viewer token reaches only its own study. Deleted studies are not found.
   */
  async byUid(caller: Caller, studyUid: string): Promise<StudyRow> {
    if (caller.studyScope !== undefined && caller.studyScope !== studyUid) throw notFound('study');
    const row = await this.repos.dicomweb.studyByUid(studyUid, viewableNamespaces(caller));
    return requireStudy(caller, row, { deleted: 'hidden' });
  }
}
