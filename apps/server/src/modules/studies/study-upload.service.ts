import type { StudyAddAnswer, StudyEditableField, StudySyncAnswer } from '@imaging-inbox/contract';
import { isValidUid } from '../../dicom/index.js';
import { invalidField, notPermitted } from '../../domain/errors.js';
import type { Caller } from '../../policies/access.js';
import { mayUploadTo, requireUploadGroup } from '../../policies/groups.js';
import type { StudyAccess } from '../../policies/study-access.js';
import type { IngestRepository } from '../../repositories/ingest.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { studyEvent } from '../../audit/audit.service.js';
import { normaliseField } from './study.service.js';

export interface StudyUploadDeps {
  ingest: IngestRepository;
  access: StudyAccess;
  audit: AuditService;
  now?: () => number;
}

/**
 * Ambra's uploader around its files: study/add makes the study first (kept out of the list while
 * it fills), study/sync reports how many images were sent, which lists it, complete or not.
 */
export class StudyUploadService {
  private readonly now: () => number;
  constructor(private readonly deps: StudyUploadDeps) {
    this.now = deps.now ?? Date.now;
  }

  async add(
    caller: Caller,
    input: { namespaceId: string; studyUid: string; fields: Partial<Record<StudyEditableField, string>> },
  ): Promise<Omit<StudyAddAnswer, 'status'>> {
    const group = requireUploadGroup(caller, input.namespaceId);
    if (!isValidUid(input.studyUid)) throw invalidField('study_uid', 'not a DICOM UID');
    const fields: Partial<Record<StudyEditableField, string>> = {};
    for (const [field, raw] of Object.entries(input.fields) as [StudyEditableField, string][])
      fields[field] = normaliseField(field, raw);
    const target = { accountId: group.accountId, namespaceId: group.namespaceId };
    const { uuid, created } = await this.deps.ingest.addEmptyStudy(
      target,
      input.studyUid,
      fields,
      this.now(),
    );
    if (created)
      await this.deps.audit.record(
        studyEvent(caller, { uuid, account_id: group.accountId }, 'STUDY_ADD', { study_uid: input.studyUid }),
      );
    return { uuid, study_uid: input.studyUid, created: created ? 1 : 0 };
  }

  async sync(caller: Caller, uuid: string, sent: number): Promise<Omit<StudySyncAnswer, 'status'>> {
    const row = await this.deps.access.byUuid(caller, uuid, { deleted: 'hidden' });
    if (!mayUploadTo(caller, row.namespace_id)) throw notPermitted('study_upload');
    const { imageCount, status } = await this.deps.ingest.syncUpload(row.uuid, sent, this.now());
    await this.deps.audit.record(
      studyEvent(caller, row, 'STUDY_SYNC', {
        images_sent: sent,
        image_count: imageCount,
        study_status: status,
      }),
    );
    return { uuid: row.uuid, image_count: imageCount, images_sent: sent, study_status: status };
  }
}
