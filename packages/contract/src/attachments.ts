/**
 * Files attached to a study (SPEC.md section 3 "Attachment"): reports, referral letters, photos.
 * Shared by the server (upload checks, answers) and the Attachments tab.
 */

/** The largest attachment accepted, in bytes. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;
/** Rows per page of the attached-files list. */
export const ATTACHMENT_PAGE_ROWS = 10;
/** The longest file name kept (characters). */
export const MAX_ATTACHMENT_NAME = 200;

/**
 * Accepted types by file name extension. `inline`: safe to show in the browser (the server still
 * sends it sandboxed); everything else is always a download.
 */
export const ATTACHMENT_TYPES: Record<string, { mime: string; inline: boolean }> = {
  pdf: { mime: 'application/pdf', inline: true },
  png: { mime: 'image/png', inline: true },
  jpg: { mime: 'image/jpeg', inline: true },
  jpeg: { mime: 'image/jpeg', inline: true },
  gif: { mime: 'image/gif', inline: true },
  txt: { mime: 'text/plain; charset=utf-8', inline: true },
  csv: { mime: 'text/csv; charset=utf-8', inline: false },
  rtf: { mime: 'application/rtf', inline: false },
  doc: { mime: 'application/msword', inline: false },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', inline: false },
  xls: { mime: 'application/vnd.ms-excel', inline: false },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', inline: false },
  odt: { mime: 'application/vnd.oasis.opendocument.text', inline: false },
};

/** The `accept` list for a file input. */
export const ATTACHMENT_ACCEPT = Object.keys(ATTACHMENT_TYPES)
  .map((ext) => `.${ext}`)
  .join(',');

/** Attachment status (SPEC.md section 3). */
export type AttachmentStatus = 'none' | 'queued' | 'successful' | 'rejected' | 'failed';

/** One version of an attachment as study/attachment/list and the upload answer give it. */
export interface AttachmentVersion {
  id: string;
  version: number;
  filename: string;
  mime: string;
  size: number;
  /** When this version was stored (epoch ms). */
  stored: number;
  phi_namespace: string;
  /** Name of the user who added it. */
  user_name: string | null;
}

/** An attachment: its newest version plus the list of all versions, newest first. */
export interface Attachment extends AttachmentVersion {
  inline: boolean;
  versions: AttachmentVersion[];
}

export interface AttachmentListAnswer {
  attachments: Attachment[];
  page: { number: number; rows: number; more: 0 | 1; total: number };
}

export interface AttachmentUploadAnswer extends AttachmentVersion {
  status: 'OK';
}
