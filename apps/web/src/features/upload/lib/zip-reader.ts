import { crc32Update } from './crc32';

/**
 * A small ZIP reader for the upload wizard. The archive is listed from its central directory, read
 * from the end of the Blob, and each entry is read lazily with blob.slice(), so a multi-gigabyte
 * archive is never held in memory. Stored entries are plain slices; deflated ones stream through
 * the browser's DecompressionStream('deflate-raw'). ZIP64 (over 4 GB or 65,535 entries) is read;
 * sizes always come from the central directory, so entries written with a data descriptor (sizes
 * after the data, zero in the local header) need nothing special. Not read: encryption, split
 * archives, compression methods other than stored and deflate (such entries are listed and refused
 * one by one when read).
 */

export const ZIP_STORED = 0;
export const ZIP_DEFLATED = 8;

/** One member of an archive, as its central directory describes it. */
export interface ZipEntry {
  /** Path inside the archive, '/'-separated. */
  path: string;
  method: number;
  encrypted: boolean;
  directory: boolean;
  crc32: number;
  compressedSize: number;
  size: number;
  /** Where its local header starts in the archive Blob. */
  localHeaderOffset: number;
}

export type ZipErrorCode = 'NOT_ZIP' | 'DAMAGED' | 'SPLIT' | 'ENCRYPTED' | 'UNSUPPORTED_METHOD';

/** Why an archive or an entry cannot be read; `code` is stable, the message says it for people. */
export class ZipError extends Error {
  constructor(
    readonly code: ZipErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ZipError';
  }
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_END64 = 0x06064b50;
const SIG_END64_LOCATOR = 0x07064b50;
const END_SIZE = 22;
const END64_LOCATOR_SIZE = 20;
const END64_SIZE = 56;
const MAX_COMMENT = 0xffff;
const ZIP64_EXTRA = 0x0001;
const FLAG_ENCRYPTED = 0x1;
const FLAG_UTF8 = 0x800;

async function bytesAt(blob: Blob, start: number, end: number): Promise<DataView> {
  if (start < 0 || end > blob.size || start > end) throw damaged('a record lies outside the file');
  return new DataView(await blob.slice(start, end).arrayBuffer());
}

const damaged = (why: string) => new ZipError('DAMAGED', `The ZIP file is damaged: ${why}.`);
const u64 = (view: DataView, at: number) => view.getUint32(at, true) + view.getUint32(at + 4, true) * 2 ** 32;

/** Whether `head` (the first bytes of a file) starts like a ZIP archive (also an empty one). */
export function looksLikeZip(head: Uint8Array): boolean {
  return (
    head.length >= 4 &&
    head[0] === 0x50 &&
    head[1] === 0x4b &&
    ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))
  );
}

interface Directory {
  entries: number;
  size: number;
  offset: number;
  /** Bytes before the archive proper (a self-extractor stub): added to every stored offset. */
  shift: number;
}

/** Finds the end record in the last 64 KB and, for ZIP64, the record it points to. */
async function findDirectory(blob: Blob): Promise<Directory> {
  const tailStart = Math.max(0, blob.size - (END_SIZE + MAX_COMMENT + END64_LOCATOR_SIZE));
  const tail = await bytesAt(blob, tailStart, blob.size);
  let at = -1;
  for (let i = tail.byteLength - END_SIZE; i >= 0; i--) {
    // The signature may also occur inside a comment: the comment length must reach the end.
    if (
      tail.getUint32(i, true) === SIG_END &&
      i + END_SIZE + tail.getUint16(i + 20, true) <= tail.byteLength
    ) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipError('NOT_ZIP', 'The file is not a ZIP archive.');
  const endOffset = tailStart + at;
  let disk = tail.getUint16(at + 4, true);
  let entries = tail.getUint16(at + 10, true);
  let size = tail.getUint32(at + 12, true);
  let offset = tail.getUint32(at + 16, true);
  let recordStart = endOffset;
  const locatorAt = at - END64_LOCATOR_SIZE;
  if (locatorAt >= 0 && tail.getUint32(locatorAt, true) === SIG_END64_LOCATOR) {
    const end64Offset = u64(tail, locatorAt + 8);
    const end64 = await bytesAt(blob, end64Offset, end64Offset + END64_SIZE);
    if (end64.getUint32(0, true) !== SIG_END64) throw damaged('the ZIP64 end record is missing');
    disk = end64.getUint32(16, true);
    entries = u64(end64, 32);
    size = u64(end64, 40);
    offset = u64(end64, 48);
    recordStart = end64Offset;
  }
  if (disk !== 0) throw new ZipError('SPLIT', 'Split ZIP archives (several parts) cannot be read.');
  // The directory ends where the end records start; any difference is data prepended to the archive.
  const shift = recordStart - size - offset;
  if (shift < 0) throw damaged('the central directory lies outside the file');
  return { entries, size, offset, shift };
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
// The upper half of code page 437, the encoding of names without the UTF-8 flag.
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** Entry names: UTF-8 when flagged; otherwise UTF-8 if valid (what most tools write), else CP437. */
function decodeName(bytes: Uint8Array, flags: number): string {
  if (flags & FLAG_UTF8 || bytes.every((b) => b < 0x80)) return new TextDecoder().decode(bytes);
  try {
    return utf8.decode(bytes);
  } catch {
    return String.fromCharCode(...bytes).replace(/[\x80-\xff]/g, (c) => CP437_HIGH[c.charCodeAt(0) - 0x80]!);
  }
}

/** Lists every entry of the archive in `blob`; reads only its end and its central directory. */
export async function readZipEntries(blob: Blob): Promise<ZipEntry[]> {
  const dir = await findDirectory(blob);
  const view = await bytesAt(blob, dir.offset + dir.shift, dir.offset + dir.shift + dir.size);
  const bytes = new Uint8Array(view.buffer);
  const entries: ZipEntry[] = [];
  let at = 0;
  // Read to the end of the directory rather than to the recorded count: writers without ZIP64
  // record the count of a 70,000-entry archive modulo 65,536.
  while (at < view.byteLength) {
    if (at + 46 > view.byteLength || view.getUint32(at, true) !== SIG_CENTRAL) {
      throw damaged('the central directory is cut short');
    }
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    let compressedSize = view.getUint32(at + 20, true);
    let size = view.getUint32(at + 24, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const nameStart = at + 46;
    const path = decodeName(bytes.subarray(nameStart, nameStart + nameLength), flags).replace(/\\/g, '/');
    // ZIP64 extra field: 8-byte values, present only for the fields whose 32-bit value is all ones,
    // in the order uncompressed size, compressed size, local header offset.
    let extra = nameStart + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = view.getUint16(extra, true);
      const length = view.getUint16(extra + 2, true);
      if (id === ZIP64_EXTRA) {
        let field = extra + 4;
        const next = () => {
          if (field + 8 > extra + 4 + length) throw damaged(`the ZIP64 sizes of ${path} are missing`);
          const value = u64(view, field);
          field += 8;
          return value;
        };
        if (size === 0xffffffff) size = next();
        if (compressedSize === 0xffffffff) compressedSize = next();
        if (localHeaderOffset === 0xffffffff) localHeaderOffset = next();
      }
      extra += 4 + length;
    }
    entries.push({
      path,
      method: view.getUint16(at + 10, true),
      encrypted: (flags & FLAG_ENCRYPTED) !== 0,
      directory: path.endsWith('/'),
      crc32: view.getUint32(at + 16, true),
      compressedSize,
      size,
      localHeaderOffset: localHeaderOffset + dir.shift,
    });
    at = extraEnd + commentLength;
  }
  if (entries.length < dir.entries) throw damaged('the central directory is cut short');
  return entries;
}

/** Where an entry's data starts: after its local header, whose name and extra lengths may differ. */
export async function entryDataStart(blob: Blob, entry: ZipEntry): Promise<number> {
  const header = await bytesAt(
    blob,
    entry.localHeaderOffset,
    Math.min(blob.size, entry.localHeaderOffset + 30),
  );
  if (header.byteLength < 30 || header.getUint32(0, true) !== SIG_LOCAL) {
    throw damaged(`the local header of ${entry.path} is missing`);
  }
  const start = entry.localHeaderOffset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  if (start + entry.compressedSize > blob.size) throw damaged(`${entry.path} is cut short`);
  return start;
}

/** Refuses what this reader cannot open, with a message for the file list. */
export function checkReadable(entry: ZipEntry): void {
  if (entry.encrypted) {
    throw new ZipError('ENCRYPTED', `${entry.path} is encrypted (password-protected) and cannot be read.`);
  }
  if (entry.method !== ZIP_STORED && entry.method !== ZIP_DEFLATED) {
    throw new ZipError(
      'UNSUPPORTED_METHOD',
      `${entry.path} is compressed with a method the browser cannot read (method ${entry.method}).`,
    );
  }
}

/** The entry's uncompressed bytes as a stream, read from the archive as it is pulled. */
export function entryStream(blob: Blob, entry: ZipEntry, dataStart: number): ReadableStream<Uint8Array> {
  checkReadable(entry);
  const raw = blob.slice(dataStart, dataStart + entry.compressedSize).stream();
  return entry.method === ZIP_STORED
    ? raw
    : raw.pipeThrough(new DecompressionStream('deflate-raw') as ReadableWritablePair<Uint8Array, Uint8Array>);
}

/**
 * The entry's content as a Blob: a slice for a stored entry (nothing read), the inflated bytes for
 * a deflated one, checked against the size and CRC-32 the directory records.
 */
export async function entryBlob(blob: Blob, entry: ZipEntry, dataStart: number): Promise<Blob> {
  checkReadable(entry);
  if (entry.method === ZIP_STORED) return blob.slice(dataStart, dataStart + entry.size);
  let crc = 0;
  let length = 0;
  const check = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      crc = crc32Update(crc, chunk);
      length += chunk.length;
      controller.enqueue(chunk);
    },
    flush() {
      if (length !== entry.size || crc !== entry.crc32)
        throw damaged(`${entry.path} does not match its checksum`);
    },
  });
  try {
    return await new Response(entryStream(blob, entry, dataStart).pipeThrough(check)).blob();
  } catch (error) {
    if (error instanceof ZipError) throw error;
    throw damaged(`${entry.path} cannot be inflated`);
  }
}
