import type { StudySchemaAnswer } from '@imaging-inbox/contract';
import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import type { Caller } from '../../policies/access.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import type { StudyFilesRepository } from './study-files.repository.js';
import type { AttachmentService } from './attachment.service.js';

export interface StudySchemaDeps {
  files: StudyFilesRepository;
  attachments: AttachmentService;
}

/** The storage `schema` of a study: its series with their images, and its attachments. */
export class StudySchemaService {
  constructor(private readonly deps: StudySchemaDeps) {}

  async of(caller: Caller, row: StudyRow): Promise<Omit<StudySchemaAnswer, 'status'>> {
    const [{ series, images }, { attachments }] = await Promise.all([
      this.deps.files.schema(row.uuid),
      // Reading the attachments records the read in the audit trail, as attachment/list does.
      this.deps.attachments.list(caller, row, 1, MAX_PAGE_ROWS),
    ]);
    return {
      uuid: row.uuid,
      study_uid: row.study_uid,
      storage_namespace: row.namespace_id,
      image_count: Number(row.image_count),
      series: series.map(({ uuid, ...s }) => ({
        ...s,
        image_count: Number(s.image_count),
        images: images
          .filter((i) => i.series_uuid === uuid)
          .map(({ series_uuid: _series, ...image }) => ({ ...image, size: Number(image.size) })),
      })),
      attachments,
    };
  }
}
