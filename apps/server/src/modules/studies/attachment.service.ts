import { randomUUID } from 'node:crypto';
import fsp from 'node:fs/promises';
import type {
  Attachment,
  AttachmentListAnswer,
  AttachmentVersion,
  ListFilter,
} from '@imaging-inbox/contract';
import { ATTACHMENT_TYPES, filterRows } from '@imaging-inbox/contract';
import type { Selectable } from 'kysely';
import type { AttachmentTable } from '../../db/schema.js';
import { DomainError, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { AttachmentRow, AttachmentsRepository } from './attachments.repository.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { BlobCollector } from '../../storage/blob-collector.js';
import type { BlobStore, TempFile } from '../../storage/blob-store.js';
import { attachmentType, cleanFilename } from './attachment-types.js';
import { callerEvent, type AuditService } from '../../audit/audit.service.js';

export interface AttachmentServiceDeps {
  attachments: AttachmentsRepository;
  studies: StudiesRepository;
  blobs: BlobStore;
  collector: BlobCollector;
  audit: AuditService;
  now?: () => number;
}

/**
 * Files attached to a study. Listing and reading need `study_view` (both are PHI reads and are
 * audited); adding and deleting need `study_edit` on a study that is not deleted and not locked by
 * someone else. The bytes are stored in the blob store (`.att` keys) and removed when no row
 * uses them any more.
 */
/** How many of a study's attachments a filtered study/attachment/list reads before filtering. */
const FILTERED_ATTACHMENTS_READ = 10_000;

export class AttachmentService {
  private readonly now: () => number;
  constructor(private readonly deps: AttachmentServiceDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Adding and deleting: study_edit of the group, on a study not deleted and not locked by someone else. */
  private requireEdit(caller: Caller, row: StudyRow): void {
    requireStudy(caller, row, {
      permissions: ['study_edit'],
      on: 'group',
      deleted: 'refused',
      unlocked: true,
    });
  }

  /** Stores an uploaded file (already streamed to `temp`) as a new attachment or version. */
  async add(caller: Caller, row: StudyRow, temp: TempFile, rawName: string): Promise<AttachmentVersion> {
    try {
      this.requireEdit(caller, row);
      const filename = cleanFilename(rawName);
      if (temp.size === 0) throw new DomainError('FILE_CONTENT_EMPTY', 'file');
      const { mime } = attachmentType(filename, await head(temp.path));
      const blobKey = await this.deps.blobs.commit(temp, { suffix: '.att' });
      let stored: Selectable<AttachmentTable>;
      try {
        stored = await this.deps.attachments.add(
          {
            study_uuid: row.uuid,
            filename,
            mime,
            size: temp.size,
            sha256: temp.sha256,
            blob_key: blobKey,
            created_by: caller.user.uuid,
            created: this.now(),
          },
          randomUUID(),
        );
      } catch (error) {
        await this.deps.collector.removeUnreferenced([blobKey]);
        throw error;
      }
      await this.deps.audit.record(
        attachmentEvent(caller, row, 'CREATE', {
          id: stored.id,
          version: stored.version,
          filename,
          mime,
          size: temp.size,
        }),
      );
      return present({ ...stored, user_name: caller.user.name }, row.namespace_id);
    } finally {
      await this.deps.blobs.discard(temp); // a no-op once committed (the temp was renamed)
    }
  }

  async list(
    caller: Caller,
    row: StudyRow,
    page: number,
    rows: number,
    filters: readonly ListFilter[] = [],
  ): Promise<AttachmentListAnswer> {
    // Filtered and paged in the query; a filter SQL cannot answer exactly (listFilterSql) reads the
    // study's attachments whole (at most FILTERED_ATTACHMENTS_READ), filters them, then pages.
    const inQuery = await this.deps.attachments.page(row.uuid, (page - 1) * rows, rows, filters);
    const read = inQuery ?? (await this.deps.attachments.page(row.uuid, 0, FILTERED_ATTACHMENTS_READ))!;
    const presented: Attachment[] = read.ids.map((id) => {
      const all = read.versions.filter((v) => v.id === id).map((v) => present(v, row.namespace_id));
      const newest = all[0]!;
      return { ...newest, inline: isInline(newest.filename), versions: all };
    });
    const matching = inQuery ? presented : filterRows(presented, filters);
    const attachments = inQuery ? presented : matching.slice((page - 1) * rows, page * rows);
    const total = inQuery ? inQuery.total : matching.length;
    await this.deps.audit.record(
      attachmentEvent(caller, row, 'ATTACHMENT_LIST', { page, returned: attachments.length }),
    );
    return { attachments, page: { number: page, rows, more: page * rows < total ? 1 : 0, total } };
  }

  /** The stored version, its file path, and an audit event for the read. */
  async open(
    caller: Caller,
    row: StudyRow,
    id: string,
    version: number,
    disposition: 'inline' | 'attachment',
  ): Promise<{
    attachment: Selectable<AttachmentTable>;
    content: AsyncIterable<Uint8Array>;
    inline: boolean;
  }> {
    const attachment = await this.deps.attachments.find(row.uuid, id, version);
    if (!attachment) throw notFound('attachment');
    const inline = disposition === 'inline' && isInline(attachment.filename);
    await this.deps.audit.record(
      attachmentEvent(caller, row, 'ATTACHMENT_VIEW', {
        id,
        version,
        filename: attachment.filename,
        disposition: inline ? 'inline' : 'attachment',
      }),
    );
    return { attachment, content: this.deps.blobs.readStream(attachment.blob_key), inline };
  }

  /** Deletes an attachment with all its versions, or one version when `version` is given. */
  async remove(caller: Caller, row: StudyRow, id: string, version?: number): Promise<void> {
    this.requireEdit(caller, row);
    const keys = await this.deps.attachments.remove(row.uuid, id, version);
    if (!keys.length) throw notFound('attachment');
    await this.deps.collector.removeUnreferenced(new Set(keys));
    await this.deps.audit.record(
      attachmentEvent(caller, row, 'DELETE', { id, version: version ?? 'all', versions: keys.length }),
    );
  }
}

function isInline(filename: string): boolean {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  return ATTACHMENT_TYPES[extension]?.inline ?? false;
}

function present(
  row: Selectable<AttachmentTable> & Pick<AttachmentRow, 'user_name'>,
  ns: string,
): AttachmentVersion {
  return {
    id: row.id,
    version: Number(row.version),
    filename: row.filename,
    mime: row.mime,
    size: Number(row.size),
    stored: Number(row.created),
    phi_namespace: ns,
    user_name: row.user_name ?? null,
  };
}

/** The first bytes of a file, for the type check. */
async function head(path: string): Promise<Buffer> {
  const handle = await fsp.open(path, 'r');
  try {
    const buffer = Buffer.alloc(512);
    const { bytesRead } = await handle.read(buffer, 0, 512, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What a caller did with a study's attachments: every such event is about the study's attachment set. */
function attachmentEvent(
  caller: Caller,
  study: StudyRow,
  action: 'CREATE' | 'ATTACHMENT_LIST' | 'ATTACHMENT_VIEW' | 'DELETE',
  detail: Record<string, unknown>,
) {
  return callerEvent(caller, study.account_id, action, { type: 'attachment', id: study.uuid }, detail);
}
