import { UPLOAD_RESUME_HEAD_BYTES } from '@imaging-inbox/contract';
import { crc32Update } from './crc32';
import { ZipEntryFile } from './media-file';

/** Bytes read from each end of a file for its content fingerprint. */
export const FINGERPRINT_BYTES = 64 * 1024;

const fingerprints = new WeakMap<File, Promise<string>>();

/**
 * A file's identity across page loads: where it sits in the picked folder (or its name), its size
 * and date, its SOP Instance UID when the header was read, and, for a file without a folder path
 * (dropped, or one of a drop's folders), a fingerprint of its content: two dropped files of the same
 * name, size and date must not resume into each other's upload session. A File object cannot be
 * kept across a reload; these can.
 */
export async function fileKey(file: File, sopInstanceUid = ''): Promise<string> {
  const parts = [file.webkitRelativePath || file.name, file.size, file.lastModified, sopInstanceUid];
  if (!file.webkitRelativePath) parts.push(await fingerprint(file));
  return parts.join('|');
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
