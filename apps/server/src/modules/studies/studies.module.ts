import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { attachmentRoutes } from './attachment.routes.js';
import { AttachmentService } from './attachment.service.js';
import { AttachmentsRepository } from './attachments.repository.js';
import { downloadRoutes } from './download.routes.js';
import { DownloadService } from './download.service.js';
import type { DownloadDeps } from './download.service.js';
import { PurgeRepository } from './purge.repository.js';
import { PurgeService } from './purge.service.js';
import { storageRoutes } from './storage.routes.js';
import { StudyActivityRepository } from './study-activity.repository.js';
import { StudyActivityService } from './study-activity.service.js';
import { StudyFileEditor } from './study-file-editor.js';
import { StudyFilesRepository } from './study-files.repository.js';
import { studyMarksRoutes } from './study-marks.routes.js';
import { StudyMarksService } from './study-marks.service.js';
import { studySchemaRoutes } from './study-schema.routes.js';
import { StudySchemaService } from './study-schema.service.js';
import { studyThumbnailRoutes } from './study-thumbnails.routes.js';
import { studyTrashRoutes } from './study-trash.routes.js';
import { StudyTrashService } from './study-trash.service.js';
import { StudyUploadService } from './study-upload.service.js';
import { studyViewerRoutes } from './study-viewer.routes.js';
import { studyRoutes } from './study.routes.js';
import { StudyService } from './study.service.js';
import type { StudyServiceDeps } from './study.service.js';
import { tagRoutes } from './tag.routes.js';
import { TagsRepository } from './tags.repository.js';
import { uploadSessionRoutes } from './upload-session.routes.js';
import { wrapRoutes } from './wrap.routes.js';
import { WrapService } from './wrap.service.js';

/** What the studies module needs of administration: the account's custom field definitions. */
export interface StudiesNeeds {
  customFields: StudyServiceDeps['customFields'];
  /** De-identified downloads (privacy's profiles bound to their account's secret). */
  deidentifier: DownloadDeps['deidentifier'];
}

/**
 * Studies (README.md): search and the study answer, edits, marks, trash and purge, attachments,
 * downloads, uploads and wrapping.
 */
export function createStudiesModule(kernel: Kernel, needs: StudiesNeeds) {
  const { audit, blobs, collector, studyAccess } = kernel;
  const { studies, settings, users } = kernel.repos;
  const k = kernel.db.kysely;
  const repos = { tags: new TagsRepository(k), purge: new PurgeRepository(k) };
  const files = new StudyFilesRepository(k);
  const ingest = kernel.services.ingest;
  const attachments = new AttachmentService({
    attachments: new AttachmentsRepository(k, kernel.db.dialect),
    studies,
    blobs,
    collector,
    audit,
  });
  const fileEditor = new StudyFileEditor({ files, blobs, collector });
  return {
    repos,
    /** Writes changed attributes into a study's stored files (gatekeeper's processing uses it too). */
    fileEditor,
    services: {
      studies: new StudyService({
        studies,
        extras: kernel.studyExtras,
        users,
        access: studyAccess,
        audit,
        fileEditor,
        customFields: needs.customFields,
        activity: new StudyActivityService(new StudyActivityRepository(k)),
        engineFqdn: kernel.engineFqdn,
      }),
      studyUploads: new StudyUploadService({ ingest: kernel.repos.ingest, access: studyAccess, audit }),
      wrap: new WrapService({ settings, studies, ingest, blobs }),
      downloads: new DownloadService({
        studies,
        dicomweb: kernel.repos.dicomweb,
        blobs,
        audit,
        deidentifier: needs.deidentifier,
      }),
      attachments,
      studySchemas: new StudySchemaService({ files, attachments }),
      trash: new StudyTrashService({ studies, access: studyAccess, audit }),
      marks: new StudyMarksService({ studies, tags: repos.tags, audit }),
      purge: new PurgeService({ repo: repos.purge, settings, collector, audit }),
    },
    jobs: [],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerStudiesRoutes(
  ctx: AppContext,
  app: FastifyInstance,
  http: { maxUploadBytes: number },
): void {
  studyRoutes(ctx, app);
  tagRoutes(ctx, app);
  storageRoutes(ctx, app, http.maxUploadBytes);
  uploadSessionRoutes(ctx, app);
  wrapRoutes(ctx, app, http.maxUploadBytes);
  downloadRoutes(ctx, app);
  attachmentRoutes(ctx, app);
  studySchemaRoutes(ctx, app);
  studyTrashRoutes(ctx, app);
  studyMarksRoutes(ctx, app);
  studyThumbnailRoutes(ctx, app);
  studyViewerRoutes(ctx, app);
}
