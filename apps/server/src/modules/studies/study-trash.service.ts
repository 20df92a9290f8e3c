import type { Caller, StudyAccess } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { studyEvent } from '../../audit/audit.service.js';

const DELETE = { permissions: ['study_delete'] } as const;

export interface StudyTrashDeps {
  studies: StudiesRepository;
  access: StudyAccess;
  audit: AuditService;
  now?: () => number;
}

/**
 * Delete moves a study to Deleted items (`deleted` = when), restore brings it back. Nothing is
 * removed here: permanent removal is the purge's job once the account's retention has passed.
 * Both are idempotent, so a bundle retried after a timeout counts the same study once.
 */
export class StudyTrashService {
  private readonly now: () => number;
  constructor(private readonly deps: StudyTrashDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** By uuid, or by (phi_namespace, study_uid) as the storage-style delete call names a study. */
  async find(
    caller: Caller,
    by: { uuid: string } | { namespace: string; studyUid: string },
  ): Promise<StudyRow> {
    return 'uuid' in by
      ? this.deps.access.byUuid(caller, by.uuid)
      : this.deps.access.byStorage(caller, by.namespace, by.studyUid);
  }

  async delete(caller: Caller, row: StudyRow): Promise<void> {
    // The study's permissions object also refuses a study locked by someone else.
    requireStudy(caller, row, DELETE);
    if (row.deleted !== null) return;
    const at = this.now();
    await this.deps.studies.update(row.uuid, { deleted: at, updated: at });
    await this.deps.audit.record(studyEvent(caller, row, 'DELETE'));
  }

  async restore(caller: Caller, row: StudyRow): Promise<void> {
    requireStudy(caller, row, DELETE);
    if (row.deleted === null) return;
    await this.deps.studies.update(row.uuid, { deleted: null, updated: this.now() });
    // History shows EDIT events; a restore is an edit of the deleted state.
    await this.deps.audit.record(
      studyEvent(caller, row, 'EDIT', {
        before: { deleted: row.deleted },
        after: { deleted: null },
        restored: true,
      }),
    );
  }
}
