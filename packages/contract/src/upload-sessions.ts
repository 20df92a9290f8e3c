/**
 * Resumable uploads (docs/api-v3.md "Upload sessions"): a file larger than one chunk is sent in
 * chunks to an upload session, which the server ingests as one file on completion. The signed-in
 * calls live under upload/session/, the link calls under link/public/upload/session/.
 */

/** Chunk size the web client sends: small enough to resend cheaply after a drop. */
export const UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024;

/** Largest chunk the server accepts in one append. */
export const MAX_UPLOAD_CHUNK_BYTES = 16 * 1024 * 1024;

/**
 * How much of a file's start identifies it to its upload session: the client declares the SHA-256 of
 * its first min(size, this) bytes at create and presents it again on resume; the server checks the
 * arriving bytes against it and refuses a resume by any other file (UPLOAD_RESUME_MISMATCH).
 */
export const UPLOAD_RESUME_HEAD_BYTES = 64 * 1024;

/** What create, status and append answer: how many bytes of the file the server holds. */
export interface UploadSessionAnswer {
  status: 'OK';
  id: string;
  size: number;
  received: number;
  expires: number;
  /** 1 once completed: the file was ingested and complete answers the same result again. */
  completed: 0 | 1;
}

/** error_data of UPLOAD_OFFSET_MISMATCH, UPLOAD_CHUNK_IN_PROGRESS and UPLOAD_INCOMPLETE: where the client should go on from. */
export interface UploadOffsetErrorData {
  received: number;
  size: number;
}
