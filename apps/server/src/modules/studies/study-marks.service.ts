import { invalidField } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { TagsRepository } from './tags.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { studyEvent } from '../../audit/audit.service.js';

export const MAX_TAG_LENGTH = 64;

export interface StudyMarksDeps {
  studies: StudiesRepository;
  tags: TagsRepository;
  audit: AuditService;
  now?: () => number;
}

/**
 * Tags and the star: small marks on a study, each gated by its own study permission (which a
 * deleted study no longer grants) and each change audited as an EDIT so History shows it.
 */
export class StudyMarksService {
  private readonly now: () => number;
  constructor(private readonly deps: StudyMarksDeps) {
    this.now = deps.now ?? Date.now;
  }

  async tag(caller: Caller, row: StudyRow, rawTag: string, add: boolean): Promise<void> {
    requireStudy(caller, row, { permissions: ['study_tag'] });
    const tag = rawTag.trim();
    if (tag.length < 1 || tag.length > MAX_TAG_LENGTH) {
      throw invalidField('tag', `must be 1 to ${MAX_TAG_LENGTH} characters`);
    }
    const had = (await this.deps.studies.extras([row.uuid])).tags.get(row.uuid)?.includes(tag) ?? false;
    if (had === add) return;
    if (add) await this.deps.tags.add(row.uuid, tag);
    else await this.deps.tags.remove(row.uuid, tag);
    await this.deps.audit.record(
      studyEvent(caller, row, 'EDIT', add ? { tag_added: tag } : { tag_removed: tag }),
    );
  }

  async star(caller: Caller, row: StudyRow, star: 0 | 1): Promise<void> {
    requireStudy(caller, row, { permissions: ['study_star'] });
    if (row.star === star) return;
    await this.deps.studies.update(row.uuid, { star, updated: this.now() });
    await this.deps.audit.record(
      studyEvent(caller, row, 'EDIT', { before: { star: row.star }, after: { star } }),
    );
  }
}
