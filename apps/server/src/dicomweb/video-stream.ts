/**
 * Finds the video stream inside a stored DICOM file whose Pixel Data holds one (MPEG-4 AVC/HEVC
 * transfer syntaxes): the encapsulated fragments after the Basic Offset Table, which together are
 * the MP4 file (docs/architecture.md "Video wrapping"). Reads item headers only: a video of any
 * size is located with a handful of small reads, and served in ranges from the file itself.
 */
import type { BlobHandle, BlobStore } from '../storage/blob-store.js';
import { ENCAPSULATED_PIXEL_DATA_HEADER, ITEM_HEADER_BYTES, readItemHeader } from '../dicom/encapsulated.js';

/** A run of the stream's bytes inside the DICOM file. */
export interface Segment {
  offset: number;
  length: number;
}

export interface VideoStream {
  segments: Segment[];
  /** Length of the stream: the fragments' total, less an even-length pad byte past the MP4's end. */
  size: number;
  /** Whether the stream is an MP4 file (starts with an ftyp box), which a browser can play. */
  mp4: boolean;
}

/** Where to look for it: a video's DICOM header is a few kB. */
const HEAD_BYTES = 1024 * 1024;

/** Streams located lately, by blob key: a player asks for many ranges of one video while it seeks. */
const located = new Map<string, VideoStream | null>();
const LOCATED_KEPT = 256;

/**
 * The video stream of the stored DICOM file `key`, or null when none is found. Blobs are named by
 * their content and never change, so an answer stays true for the key.
 */
export async function locateVideoStream(blobs: BlobStore, key: string): Promise<VideoStream | null> {
  if (located.has(key)) return located.get(key)!;
  const stream = await findVideoStream(blobs, key);
  if (located.size >= LOCATED_KEPT) located.delete(located.keys().next().value!);
  located.set(key, stream);
  return stream;
}

async function findVideoStream(blobs: BlobStore, key: string): Promise<VideoStream | null> {
  const file = await blobs.open(key);
  try {
    const fileSize = file.size;
    const head = Buffer.alloc(Math.min(HEAD_BYTES, fileSize));
    await file.read(head, 0, head.length, 0);
    // The same bytes could appear inside an earlier value; a candidate counts only if its items
    // run through to a sequence delimiter inside the file.
    for (
      let at = head.indexOf(ENCAPSULATED_PIXEL_DATA_HEADER, 132);
      at >= 0;
      at = head.indexOf(ENCAPSULATED_PIXEL_DATA_HEADER, at + 1)
    ) {
      const segments = await walkFragments(file, at + ENCAPSULATED_PIXEL_DATA_HEADER.length, fileSize);
      if (segments) return await describe(file, segments);
    }
    return null;
  } finally {
    await file.close();
  }
}

/** The fragments after the Basic Offset Table, or null if the items do not end in a delimiter. */
async function walkFragments(file: BlobHandle, start: number, fileSize: number): Promise<Segment[] | null> {
  const header = Buffer.alloc(ITEM_HEADER_BYTES);
  const items: Segment[] = [];
  let position = start;
  while (position + ITEM_HEADER_BYTES <= fileSize) {
    await file.read(header, 0, ITEM_HEADER_BYTES, position);
    const item = readItemHeader(header, 0);
    position += ITEM_HEADER_BYTES;
    if (!item) return null;
    if (item.kind === 'delimiter') return items.length > 1 ? items.slice(1) : null;
    if (position + item.length > fileSize) return null;
    items.push({ offset: position, length: item.length });
    position += item.length;
  }
  return null;
}

/** Total size, trimmed to the MP4's own end (its top-level boxes) when that is one pad byte short. */
async function describe(file: BlobHandle, segments: Segment[]): Promise<VideoStream> {
  const total = segments.reduce((sum, s) => sum + s.length, 0);
  const first = segments[0];
  const head = Buffer.alloc(8);
  if (first && first.length >= 8) await file.read(head, 0, 8, first.offset);
  const mp4 = head.toString('latin1', 4, 8) === 'ftyp';
  if (!mp4 || segments.length !== 1 || !first) return { segments, size: total, mp4 };
  // Walk the top-level boxes of the one fragment: their sizes add up to the MP4's length.
  let position = 0;
  const box = Buffer.alloc(16);
  while (position + 8 <= total) {
    await file.read(box, 0, 16, first.offset + position);
    let size = box.readUInt32BE(0);
    if (size === 1) size = Number(box.readBigUInt64BE(8));
    if (size === 0) return { segments, size: total, mp4 };
    if (size < 8) break;
    position += size;
  }
  const size = position === total - 1 ? position : total;
  return { segments: [{ offset: first.offset, length: size }], size, mp4 };
}

/** The file ranges holding stream bytes [start, end] (inclusive), in order. */
export function rangeSegments(stream: VideoStream, start: number, end: number): Segment[] {
  const out: Segment[] = [];
  let base = 0;
  for (const s of stream.segments) {
    const from = Math.max(start, base);
    const to = Math.min(end, base + s.length - 1);
    if (from <= to) out.push({ offset: s.offset + (from - base), length: to - from + 1 });
    base += s.length;
  }
  return out;
}

/**
 * A single `bytes=` range of a `size`-byte body (RFC 9110 14.1.2): [start, end] inclusive, null for
 * no or an unsupported (multi-range) header, 'unsatisfiable' for one past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): [number, number] | null | 'unsatisfiable' {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return null;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
}
