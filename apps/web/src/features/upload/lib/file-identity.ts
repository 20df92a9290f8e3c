import { UPLOAD_CHUNK_BYTES, UPLOAD_RESUME_HEAD_BYTES } from '@imaging-inbox/contract';
import { crc32Update } from './crc32';
import { ZipEntryFile } from './media-file';

/** Bytes read from each end of a file for its content fingerprint. */
export const FINGERPRINT_BYTES = 64 * 1024;

const fingerprints = new WeakMap<File, Promise<string>>();

/**
 * A file's identity across page loads: where it sits in the picked folder (or its name), its size
 * and date, its SOP Instance UID when the header was read, and, where those can name two different
 * files, a fingerprint of its content. A File object cannot be kept across a reload; these can.
 */
export async function fileKey(
  file: File,
  sopInstanceUid = '',
  chunkBytes = UPLOAD_CHUNK_BYTES,
): Promise<string> {
  const parts = [file.webkitRelativePath || file.name, file.size, file.lastModified, sopInstanceUid];
  if (needsFingerprint(file, sopInstanceUid, chunkBytes)) parts.push(await fingerprint(file));
  return parts.join('|');
}

/** Keys computed at once: a fingerprint holds 128 KB of its file while it is computed. */
const KEYS_AT_ONCE = 8;

/** The keys of many files, in order (a few at a time), for one read of their resume records. */
export async function fileKeys(items: readonly { file: File; sopInstanceUid?: string }[]): Promise<string[]> {
  const keys: string[] = [];
  for (let i = 0; i < items.length; i += KEYS_AT_ONCE) {
    const batch = items.slice(i, i + KEYS_AT_ONCE);
    keys.push(...(await Promise.all(batch.map((item) => fileKey(item.file, item.sopInstanceUid)))));
  }
  return keys;
}

/**
 * Whether a file's key carries a content fingerprint. A file with a folder path is told apart by
 * it. A file without one (dropped, or one of a drop's folders) may share name, size and date with
 * another: two such files must not resume into each other's upload session, so a file sent in
 * chunks is fingerprinted. A file sent whole in one request has no session, only the mark that it
 * was stored; with its SOP Instance UID in the key, a file taken for it would be the same instance,
 * which the server answers as a duplicate anyway, so it is not read for a fingerprint (128 KB and
 * a SHA-256 per file, in the send path). Without a UID it is, as before.
 */
export function needsFingerprint(file: File, sopInstanceUid: string, chunkBytes: number): boolean {
  if (file.webkitRelativePath) return false;
  return file.size > chunkBytes || !sopInstanceUid;
}

/**
 * A cheap content fingerprint: SHA-256 of the first and last 64 KB and the size (128 KB read
 * whatever the file's size), once per File. A deflated ZIP entry is not read at all: its CRC-32
 * from the archive's directory stands in. Without crypto.subtle (a page not served over HTTPS or
 * from localhost) a CRC-32 of the same bytes does.
 */
export function fingerprint(file: File): Promise<string> {
  let known = fingerprints.get(file);
  if (!known) {
    known = computeFingerprint(file);
    fingerprints.set(file, known);
  }
  return known;
}

async function computeFingerprint(file: File): Promise<string> {
  if (file instanceof ZipEntryFile) return `zip${file.entry.crc32.toString(16)}`;
  const head = file.slice(0, FINGERPRINT_BYTES);
  const tail = file.slice(Math.max(FINGERPRINT_BYTES, file.size - FINGERPRINT_BYTES));
  const size = new Uint8Array(8);
  new DataView(size.buffer).setBigUint64(0, BigInt(file.size));
  const bytes = new Uint8Array(await new Blob([head, tail, size]).arrayBuffer());
  const sha = await sha256Hex(bytes);
  return sha ? sha.slice(0, 32) : `crc${crc32Update(0, bytes).toString(16)}`;
}

/**
 * SHA-256 (hex) of the first min(size, UPLOAD_RESUME_HEAD_BYTES) bytes of what is sent: declared
 * when an upload session is opened and presented when it is resumed, so the server refuses a
 * session holding the start of another file. Undefined without crypto.subtle (no check then).
 */
export async function headSha256(body: Blob): Promise<string | undefined> {
  const bytes = new Uint8Array(await body.slice(0, UPLOAD_RESUME_HEAD_BYTES).arrayBuffer());
  return (await sha256Hex(bytes)) ?? undefined;
}

async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = new Uint8Array(await subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
