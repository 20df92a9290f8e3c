/**
 * A Part-10 file read as a stream, split into its File Meta Information (read, never sent: C-STORE
 * carries the dataset only) and the dataset's bytes, which continue as the same stream.
 */
import fs from 'node:fs';
import type { StoreSource } from './types.js';

export class Part10Error extends Error {}

interface MetaElement {
  element: number;
  value: Buffer;
}

/**
 * Walks the meta group (always Explicit VR LE, PS3.10 7.1) from byte 132. Answers where the dataset
 * starts and the meta elements, or undefined when `bytes` ends before the group does.
 */
function readMeta(
  bytes: Buffer,
  atEnd: boolean,
): { datasetStart: number; elements: MetaElement[] } | undefined {
  if (bytes.length < 132) {
    if (atEnd) throw new Part10Error('not a DICOM Part-10 file (shorter than its preamble)');
    return undefined;
  }
  if (bytes.toString('latin1', 128, 132) !== 'DICM')
    throw new Part10Error('not a DICOM Part-10 file (no DICM prefix)');
  const elements: MetaElement[] = [];
  let offset = 132;
  for (;;) {
    if (offset + 8 > bytes.length) {
      if (atEnd) return { datasetStart: offset, elements };
      return undefined;
    }
    if (bytes.readUInt16LE(offset) !== 0x0002) return { datasetStart: offset, elements };
    const element = bytes.readUInt16LE(offset + 2);
    const vr = bytes.toString('latin1', offset + 4, offset + 6);
    let length: number;
    let header: number;
    if (['OB', 'OD', 'OF', 'OL', 'OW', 'SQ', 'UC', 'UN', 'UR', 'UT'].includes(vr)) {
      if (offset + 12 > bytes.length) return atEnd ? fail() : undefined;
      length = bytes.readUInt32LE(offset + 8);
      header = 12;
    } else {
      length = bytes.readUInt16LE(offset + 6);
      header = 8;
    }
    const end = offset + header + length;
    if (end > bytes.length) return atEnd ? fail() : undefined;
    elements.push({ element, value: bytes.subarray(offset + header, end) });
    offset = end;
  }
}

function fail(): never {
  throw new Part10Error('the file ends inside its meta header');
}

/** The stream's dataset bytes, after its meta header. Throws Part10Error when it is not Part-10. */
export async function splitPart10(source: AsyncIterable<Buffer>): Promise<AsyncIterable<Buffer>> {
  const iterator = source[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  let meta = readMeta(head, false);
  while (!meta) {
    const next = await iterator.next();
    if (next.done) {
      meta = readMeta(head, true)!;
      break;
    }
    head = head.length === 0 ? next.value : Buffer.concat([head, next.value]);
    meta = readMeta(head, false);
  }
  const rest = head.subarray(meta.datasetStart);
  return {
    async *[Symbol.asyncIterator]() {
      if (rest.length > 0) yield rest;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
}

/** Largest read when a file is sent: big reads, few PDUs split across chunks. */
const READ_CHUNK = 1024 * 1024;

/**
 * A StoreSource for a Part-10 file on disk. The SOP class, instance and transfer syntax are read
 * from its meta header unless given (callers that index files know them already).
 */
export async function fileStoreSource(path: string, known?: Omit<StoreSource, 'open'>): Promise<StoreSource> {
  const handle = await fs.promises.open(path, 'r');
  let size: number;
  let head: Buffer | undefined;
  try {
    size = (await handle.stat()).size;
    if (!known) {
      const buffer = Buffer.allocUnsafe(Math.min(size, 16 * 1024));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      head = buffer.subarray(0, bytesRead);
    }
  } finally {
    await handle.close();
  }
  // Reads sized to the file (and bounded by `end`): a small file is one read of its own size, not
  // a megabyte buffer per read, which made the collector the main cost of sending small files.
  const open = () =>
    fs.createReadStream(path, {
      highWaterMark: Math.max(1, Math.min(size, READ_CHUNK)),
      start: 0,
      end: Math.max(0, size - 1),
    });
  if (known) return { ...known, open };
  const meta = readMeta(head!, true)!;
  const text = (element: number) =>
    meta.elements
      .find((e) => e.element === element)
      ?.value.toString('latin1')
      .replace(/[\0 ]+$/, '') ?? '';
  const source = {
    sopClassUid: text(0x0002),
    sopInstanceUid: text(0x0003),
    transferSyntax: text(0x0010),
    open,
  };
  if (!source.sopClassUid || !source.sopInstanceUid || !source.transferSyntax) {
    throw new Part10Error(`${path}: meta header without SOP class, SOP instance or transfer syntax`);
  }
  return source;
}
