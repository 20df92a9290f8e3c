/**
 * A streaming ZIP writer for downloads: STORED entries only (DICOM pixel data barely compresses,
 * and deflating would cap throughput far below disk speed), CRC-32 computed while the bytes pass
 * through, so each file is read from disk exactly once and never held whole in memory.
 *
 * Because every entry's size is known before streaming (the index stores it), the archive's
 * total length is known up front too (`zipLength`), which lets the HTTP answer carry a
 * Content-Length and the browser show real progress. Entries set general-purpose bit 3 (CRC in
 * a data descriptor after the data); sizes go in the local header as well, which the spec allows
 * and which lets streaming readers find the end of a STORED entry. ZIP64 records are used per
 * entry and for the end of the archive only when a value does not fit in 32 bits / 16 bits.
 */
import zlib from 'node:zlib';

export interface ZipEntry {
  /** Path inside the archive, `/`-separated, ASCII. */
  name: string;
  /** Exact byte length the source yields; a mismatch aborts the stream (the archive would lie). */
  size: number;
  /** The content, produced lazily so only one entry's source is open at a time. */
  open: () => AsyncIterable<Uint8Array>;
}

const MAX32 = 0xffffffff;
const MAX16 = 0xffff;
const FLAGS = 0x0008 | 0x0800; // bit 3: data descriptor; bit 11: UTF-8 names
const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const EOCD = 22;
const ZIP64_EOCD = 56;
const ZIP64_LOCATOR = 20;

export class ZipSizeMismatchError extends Error {}

function needsZip64(size: number): boolean {
  return size >= MAX32;
}

function localHeaderLength(name: Buffer, size: number): number {
  return LOCAL_HEADER + name.length + (needsZip64(size) ? 20 : 0);
}

function descriptorLength(size: number): number {
  return needsZip64(size) ? 24 : 16;
}

/** The zip64 extra field of a central record: only the fields whose 32-bit slot overflows. */
function centralExtraLength(size: number, offset: number): number {
  const fields = (needsZip64(size) ? 2 : 0) + (offset >= MAX32 ? 1 : 0);
  return fields ? 4 + 8 * fields : 0;
}

/** The byte length of the archive `zipStream` will produce for these entries. */
export function zipLength(entries: readonly Pick<ZipEntry, 'name' | 'size'>[]): number {
  let offset = 0;
  let central = 0;
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    central += CENTRAL_HEADER + name.length + centralExtraLength(entry.size, offset);
    offset += localHeaderLength(name, entry.size) + entry.size + descriptorLength(entry.size);
  }
  return offset + central + endLength(entries.length, offset, central);
}

function endLength(count: number, centralOffset: number, centralSize: number): number {
  const zip64 = count >= MAX16 || centralOffset >= MAX32 || centralSize >= MAX32;
  return EOCD + (zip64 ? ZIP64_EOCD + ZIP64_LOCATOR : 0);
}

/** MS-DOS date and time of `at` (local fields as UTC: archives carry no zone). */
function dosDateTime(at: Date): { date: number; time: number } {
  const year = Math.max(1980, at.getUTCFullYear());
  return {
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
  };
}

interface Written {
  name: Buffer;
  size: number;
  crc: number;
  offset: number;
}

/**
 * Yields the archive chunk by chunk. Pull-driven: nothing is read from a source until the consumer
 * asks, so a slow client holds at most one read buffer per download in memory.
 */
export async function* zipStream(
  entries: Iterable<ZipEntry>,
  modified: Date = new Date(),
): AsyncGenerator<Uint8Array> {
  const { date, time } = dosDateTime(modified);
  const written: Written[] = [];
  let offset = 0;
  // Headers, descriptors and central records are tens of bytes each: gathered and sent as one
  // chunk before the next data (a descriptor with the next header, the whole central directory),
  // so the socket gets a few large writes instead of one small write per record.
  let small: Buffer[] = [];
  const gathered = () => {
    const chunk = small.length === 1 ? small[0]! : Buffer.concat(small);
    small = [];
    return chunk;
  };

  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8');
    const zip64 = needsZip64(entry.size);
    const header = Buffer.alloc(localHeaderLength(name, entry.size));
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? 45 : 20, 4);
    header.writeUInt16LE(FLAGS, 6);
    header.writeUInt16LE(0, 8); // STORED
    header.writeUInt16LE(time, 10);
    header.writeUInt16LE(date, 12);
    header.writeUInt32LE(0, 14); // CRC follows in the data descriptor
    header.writeUInt32LE(zip64 ? MAX32 : entry.size, 18);
    header.writeUInt32LE(zip64 ? MAX32 : entry.size, 22);
    header.writeUInt16LE(name.length, 26);
    header.writeUInt16LE(zip64 ? 20 : 0, 28);
    name.copy(header, LOCAL_HEADER);
    if (zip64) {
      const extra = LOCAL_HEADER + name.length;
      header.writeUInt16LE(0x0001, extra);
      header.writeUInt16LE(16, extra + 2);
      header.writeBigUInt64LE(BigInt(entry.size), extra + 4);
      header.writeBigUInt64LE(BigInt(entry.size), extra + 12);
    }
    small.push(header);

    let crc = 0;
    let seen = 0;
    for await (const chunk of entry.open()) {
      seen += chunk.byteLength;
      if (seen > entry.size) throw new ZipSizeMismatchError(`${entry.name}: longer than ${entry.size}`);
      crc = zlib.crc32(chunk, crc);
      if (small.length) yield gathered();
      yield chunk;
    }
    if (seen !== entry.size) throw new ZipSizeMismatchError(`${entry.name}: ${seen} of ${entry.size} bytes`);

    const descriptor = Buffer.alloc(descriptorLength(entry.size));
    descriptor.writeUInt32LE(0x08074b50, 0);
    descriptor.writeUInt32LE(crc >>> 0, 4);
    if (zip64) {
      descriptor.writeBigUInt64LE(BigInt(entry.size), 8);
      descriptor.writeBigUInt64LE(BigInt(entry.size), 16);
    } else {
      descriptor.writeUInt32LE(entry.size, 8);
      descriptor.writeUInt32LE(entry.size, 12);
    }
    small.push(descriptor);

    written.push({ name, size: entry.size, crc: crc >>> 0, offset });
    offset += header.length + entry.size + descriptor.length;
  }

  const centralOffset = offset;
  let centralSize = 0;
  for (const entry of written) {
    const record = centralRecord(entry, date, time);
    centralSize += record.length;
    small.push(record);
  }
  small.push(endRecords(written.length, centralOffset, centralSize));
  yield gathered();
}

function centralRecord(entry: Written, date: number, time: number): Buffer {
  const sizeOver = needsZip64(entry.size);
  const offsetOver = entry.offset >= MAX32;
  const extraLength = centralExtraLength(entry.size, entry.offset);
  const record = Buffer.alloc(CENTRAL_HEADER + entry.name.length + extraLength);
  record.writeUInt32LE(0x02014b50, 0);
  record.writeUInt16LE((3 << 8) | 45, 4); // made by: Unix, spec 4.5
  record.writeUInt16LE(extraLength ? 45 : 20, 6);
  record.writeUInt16LE(FLAGS, 8);
  record.writeUInt16LE(0, 10);
  record.writeUInt16LE(time, 12);
  record.writeUInt16LE(date, 14);
  record.writeUInt32LE(entry.crc, 16);
  record.writeUInt32LE(sizeOver ? MAX32 : entry.size, 20);
  record.writeUInt32LE(sizeOver ? MAX32 : entry.size, 24);
  record.writeUInt16LE(entry.name.length, 28);
  record.writeUInt16LE(extraLength, 30);
  // comment length, disk number, internal attributes: 0
  record.writeUInt32LE((0o100644 << 16) >>> 0, 38); // external attributes: a regular file, rw-r--r--
  record.writeUInt32LE(offsetOver ? MAX32 : entry.offset, 42);
  entry.name.copy(record, CENTRAL_HEADER);
  if (extraLength) {
    let at = CENTRAL_HEADER + entry.name.length;
    record.writeUInt16LE(0x0001, at);
    record.writeUInt16LE(extraLength - 4, at + 2);
    at += 4;
    if (sizeOver) {
      record.writeBigUInt64LE(BigInt(entry.size), at);
      record.writeBigUInt64LE(BigInt(entry.size), at + 8);
      at += 16;
    }
    if (offsetOver) record.writeBigUInt64LE(BigInt(entry.offset), at);
  }
  return record;
}

function endRecords(count: number, centralOffset: number, centralSize: number): Buffer {
  const zip64 = count >= MAX16 || centralOffset >= MAX32 || centralSize >= MAX32;
  const out = Buffer.alloc(endLength(count, centralOffset, centralSize));
  let at = 0;
  if (zip64) {
    out.writeUInt32LE(0x06064b50, 0);
    out.writeBigUInt64LE(BigInt(ZIP64_EOCD - 12), 4);
    out.writeUInt16LE((3 << 8) | 45, 12);
    out.writeUInt16LE(45, 14);
    // disk numbers (16, 20): 0
    out.writeBigUInt64LE(BigInt(count), 24);
    out.writeBigUInt64LE(BigInt(count), 32);
    out.writeBigUInt64LE(BigInt(centralSize), 40);
    out.writeBigUInt64LE(BigInt(centralOffset), 48);
    out.writeUInt32LE(0x07064b50, ZIP64_EOCD);
    out.writeUInt32LE(0, ZIP64_EOCD + 4);
    out.writeBigUInt64LE(BigInt(centralOffset + centralSize), ZIP64_EOCD + 8);
    out.writeUInt32LE(1, ZIP64_EOCD + 16);
    at = ZIP64_EOCD + ZIP64_LOCATOR;
  }
  out.writeUInt32LE(0x06054b50, at);
  out.writeUInt16LE(Math.min(count, MAX16), at + 8);
  out.writeUInt16LE(Math.min(count, MAX16), at + 10);
  out.writeUInt32LE(Math.min(centralSize, MAX32), at + 12);
  out.writeUInt32LE(Math.min(centralOffset, MAX32), at + 16);
  return out;
}
