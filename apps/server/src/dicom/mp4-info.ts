/**
 * A small ISO base media file format (ISO/IEC 14496-12, "MP4") reader: just enough of the box tree to
 * describe the first video track of an uploaded file for the DICOM video wrapping (wrap-video.ts),
 * without decoding a frame and without ffmpeg at run time.
 *
 * It reads from a file handle: the top-level boxes are walked by their headers (the media data, which
 * is nearly all of a video, is never read), and only `moov` (the sample tables, small next to the
 * media) is loaded into memory.
 */
import type { FileHandle } from 'node:fs/promises';

export type Mp4ProblemCode = 'INVALID_FILE_CONTENT' | 'UNSUPPORTED_VIDEO_CODEC';

export class Mp4Problem extends Error {
  constructor(
    readonly code: Mp4ProblemCode,
    readonly detail: string,
  ) {
    super(`${code}: ${detail}`);
  }
}

/** The H.264 decoder configuration (ISO/IEC 14496-15 5.3.3.1, `avcC`). */
export interface AvcConfig {
  profileIdc: number;
  /** profile_compatibility: constraint_set0_flag is 0x80, constraint_set1_flag 0x40, and so on. */
  constraintFlags: number;
  levelIdc: number;
}

export interface Mp4VideoInfo {
  /** Sample entry four-character code: avc1, avc3, hvc1, mp4v, … */
  codec: string;
  /** Present for avc1/avc3. */
  avc: AvcConfig | null;
  /** Pixel size of the coded pictures, from the visual sample entry. */
  width: number;
  height: number;
  /** Presentation size from the track header (16.16 fixed point, rounded). */
  trackWidth: number;
  trackHeight: number;
  /** Media timescale (units per second) and duration in those units (`mdhd`). */
  timescale: number;
  duration: number;
  /** Samples (frames) of the video track (`stsz`). */
  frameCount: number;
  /** Frames per second: from a constant sample duration (`stts`), else the average. */
  frameRate: number;
  /** Whether the file also carries a sound track (kept as it is in the container). */
  hasAudio: boolean;
}

/** Largest `moov` box read into memory; the sample tables of a 100 MB video are a few hundred kB. */
const MAX_MOOV_BYTES = 64 * 1024 * 1024;

/** Brands of ISO-BMFF still-image formats (HEIF, AVIF), which are not videos. */
const IMAGE_BRANDS = new Set(['heic', 'heix', 'mif1', 'msf1', 'avif', 'avis', 'heim', 'heis']);

/** Whether the bytes start with an ISO-BMFF `ftyp` box (MP4, M4V, MOV, 3GP all do). */
export function isIsoBmff(head: Uint8Array): boolean {
  if (head.length < 12) return false;
  const size = readU32(head, 0);
  return fourcc(head, 4) === 'ftyp' && size >= 8 && size <= 4096;
}

interface Box {
  type: string;
  /** Offset of the payload (after the header) and its length. */
  start: number;
  end: number;
}

/** Reads the description of the first video track of the ISO-BMFF file open in `file`. */
export async function readMp4Info(file: FileHandle, fileSize: number): Promise<Mp4VideoInfo> {
  let moov: Uint8Array | null = null;
  let sawMdat = false;
  let ftypBrands: string[] = [];
  let position = 0;
  const header = new Uint8Array(16);
  while (position < fileSize) {
    if (fileSize - position < 8) throw damaged('MP4 ends inside a box header');
    const { bytesRead } = await file.read(header, 0, 16, position);
    let size = readU32(header, 0);
    const type = fourcc(header, 4);
    let headerLength = 8;
    if (size === 1) {
      if (bytesRead < 16) throw damaged('MP4 ends inside a box header');
      size = readU64(header, 8);
      headerLength = 16;
    } else if (size === 0) {
      size = fileSize - position; // "to the end of the file"
    }
    if (size < headerLength) throw damaged(`MP4 box ${printable(type)} has an impossible size`);
    if (position + size > fileSize) {
      throw damaged(`MP4 is cut off: box ${printable(type)} runs past the end of the file`);
    }
    if (position === 0 && type !== 'ftyp') throw damaged('MP4 does not start with a file type box');
    if (type === 'ftyp') {
      const ftyp = new Uint8Array(Math.min(size, 4096));
      await file.read(ftyp, 0, ftyp.length, position);
      ftypBrands = brandsOf(ftyp.subarray(headerLength));
    } else if (type === 'moov') {
      if (moov) throw damaged('MP4 has two movie boxes');
      if (size > MAX_MOOV_BYTES) throw damaged('MP4 movie box is too large');
      moov = new Uint8Array(size - headerLength);
      await file.read(moov, 0, moov.length, position + headerLength);
    } else if (type === 'mdat') {
      sawMdat = true;
    } else if (type === 'moof') {
      // Fragmented MP4 (DASH/CMAF segments): the sample tables are spread over fragments.
      throw new Mp4Problem(
        'UNSUPPORTED_VIDEO_CODEC',
        'fragmented MP4 is not accepted; save the video as a regular MP4',
      );
    }
    position += size;
  }
  if (ftypBrands.some((b) => IMAGE_BRANDS.has(b)) && !moov) {
    throw new Mp4Problem('UNSUPPORTED_VIDEO_CODEC', 'this is a HEIF/AVIF still image, not a video');
  }
  if (!moov) throw damaged('MP4 has no movie box (moov)');
  if (!sawMdat) throw damaged('MP4 has no media data box (mdat)');
  return describeMovie(moov, fileSize);
}

/** The first video track of a `moov` payload. */
function describeMovie(moov: Uint8Array, fileSize: number): Mp4VideoInfo {
  const traks = childBoxes(moov, 0, moov.length).filter((b) => b.type === 'trak');
  let video: Box | null = null;
  let hasAudio = false;
  for (const trak of traks) {
    const handler = handlerOf(moov, trak);
    if (handler === 'vide' && !video) video = trak;
    if (handler === 'soun') hasAudio = true;
  }
  if (!video) throw damaged('MP4 has no video track');

  const tkhd = need(moov, video, 'tkhd');
  const tkhdVersion = moov[tkhd.start]!;
  // Width and height are the last two 32-bit fields of the track header, in 16.16 fixed point.
  const tkhdSizeExpected = tkhdVersion === 1 ? 96 : 84;
  if (tkhd.end - tkhd.start < tkhdSizeExpected) throw damaged('MP4 track header is too short');
  const trackWidth = Math.round(readU32(moov, tkhd.start + tkhdSizeExpected - 8) / 65536);
  const trackHeight = Math.round(readU32(moov, tkhd.start + tkhdSizeExpected - 4) / 65536);

  const mdia = need(moov, video, 'mdia');
  const mdhd = need(moov, mdia, 'mdhd');
  const version = moov[mdhd.start]!;
  if (mdhd.end - mdhd.start < (version === 1 ? 32 : 20)) throw damaged('MP4 media header is too short');
  const timescale = readU32(moov, mdhd.start + (version === 1 ? 20 : 12));
  const duration = version === 1 ? readU64(moov, mdhd.start + 24) : readU32(moov, mdhd.start + 16);
  if (timescale === 0) throw damaged('MP4 media header has a zero timescale');

  const stbl = need(moov, need(moov, mdia, 'minf'), 'stbl');
  const stsd = need(moov, stbl, 'stsd');
  // stsd: version/flags (4), entry_count (4), then the sample entries as boxes.
  if (stsd.end - stsd.start < 8 || readU32(moov, stsd.start + 4) < 1) {
    throw damaged('MP4 video track has no sample description');
  }
  const [entry] = childBoxes(moov, stsd.start + 8, stsd.end);
  if (!entry) throw damaged('MP4 video track has no sample description');
  const codec = entry.type;
  // VisualSampleEntry: 6 reserved + 2 data_reference_index + 16 pre_defined/reserved, then
  // width (16), height (16), resolutions, frame_count, compressorname (32), depth, pre_defined: 78 bytes.
  if (entry.end - entry.start < 78) throw damaged('MP4 video sample description is too short');
  const width = readU16(moov, entry.start + 24);
  const height = readU16(moov, entry.start + 26);
  let avc: AvcConfig | null = null;
  if (codec === 'avc1' || codec === 'avc3') {
    const avcC = childBoxes(moov, entry.start + 78, entry.end).find((b) => b.type === 'avcC');
    if (!avcC || avcC.end - avcC.start < 4 || moov[avcC.start] !== 1) {
      throw damaged('MP4 H.264 track has no decoder configuration (avcC)');
    }
    avc = {
      profileIdc: moov[avcC.start + 1]!,
      constraintFlags: moov[avcC.start + 2]!,
      levelIdc: moov[avcC.start + 3]!,
    };
  }

  const frameCount = sampleSizes(moov, need(moov, stbl, 'stsz')).count;
  if (frameCount === 0) throw damaged('MP4 video track has no frames');

  const frameRate = frameRateOf(moov, need(moov, stbl, 'stts'), frameCount, timescale, duration);
  checkChunksInsideFile(moov, stbl, fileSize);
  // The other tracks (sound) are kept in the stored file too: a cut inside them is as damaged.
  for (const trak of traks) {
    if (trak === video) continue;
    const other = stblOf(moov, trak);
    if (other && hasSampleTables(moov, other)) checkChunksInsideFile(moov, other, fileSize);
  }
  if (width === 0 || height === 0) throw damaged('MP4 video track has no picture size');
  return {
    codec,
    avc,
    width,
    height,
    trackWidth,
    trackHeight,
    timescale,
    duration,
    frameCount,
    frameRate,
    hasAudio,
  };
}

/**
 * Frames per second from the decoding-time table (ISO/IEC 14496-12 8.6.1.2). Its sample count must be
 * the sample size table's: neither can be taken over the other (Number of Frames would be wrong, or
 * the timing of the frames would be), so a file whose tables disagree is refused.
 */
function frameRateOf(moov: Uint8Array, stts: Box, frameCount: number, timescale: number, duration: number) {
  const entries = stts.end - stts.start >= 8 ? readU32(moov, stts.start + 4) : 0;
  if (stts.end - stts.start < 8 + 8 * entries) {
    throw damaged('MP4 time-to-sample table is cut off');
  }
  let samples = 0;
  let total = 0;
  const deltas = new Set<number>();
  for (let i = 0; i < entries; i++) {
    const count = readU32(moov, stts.start + 8 + 8 * i);
    const delta = readU32(moov, stts.start + 12 + 8 * i);
    samples += count;
    total += count * delta;
    // The last sample's duration is often written as whatever is left; ignore a single odd one.
    if (count > 1 || entries === 1) deltas.add(delta);
  }
  if (samples !== frameCount) {
    throw damaged(
      `MP4 sample tables disagree on the number of frames (${samples} timed in stts, ${frameCount} sized in stsz)`,
    );
  }
  if (deltas.size === 1) {
    const [delta] = [...deltas];
    if (delta! > 0) return timescale / delta!;
  }
  const span = total || duration;
  if (span === 0) throw new Mp4Problem('INVALID_FILE_CONTENT', 'MP4 video track has no duration');
  return (frameCount * timescale) / span;
}

/** The sample sizes of a track (`stsz`, ISO/IEC 14496-12 8.7.3.2): one size for all, or one each. */
function sampleSizes(moov: Uint8Array, stsz: Box): { count: number; sizeOf: (sample: number) => number } {
  if (stsz.end - stsz.start < 12) throw damaged('MP4 sample size table is too short');
  const constant = readU32(moov, stsz.start + 4);
  const count = readU32(moov, stsz.start + 8);
  if (constant !== 0) return { count, sizeOf: () => constant };
  if (stsz.end - stsz.start < 12 + 4 * count) throw damaged('MP4 sample size table is cut off');
  return { count, sizeOf: (sample) => readU32(moov, stsz.start + 12 + 4 * sample) };
}

/** The file offset of each chunk (`stco`, or `co64` for files past 4 GiB; 8.7.5). */
function chunkOffsets(moov: Uint8Array, stbl: Box): number[] {
  const boxes = childBoxes(moov, stbl.start, stbl.end);
  const stco = boxes.find((b) => b.type === 'stco');
  const table = stco ?? boxes.find((b) => b.type === 'co64');
  if (!table) throw damaged('MP4 track has no chunk offsets');
  const wide = !stco;
  const count = table.end - table.start >= 8 ? readU32(moov, table.start + 4) : 0;
  if (table.end - table.start < 8 + count * (wide ? 8 : 4))
    throw damaged('MP4 chunk offset table is cut off');
  const offsets: number[] = [];
  for (let i = 0; i < count; i++) {
    offsets.push(wide ? readU64(moov, table.start + 8 + 8 * i) : readU32(moov, table.start + 8 + 4 * i));
  }
  return offsets;
}

/** The runs of the sample-to-chunk table (`stsc`, 8.7.4): from `firstChunk` on (1-based), n samples each. */
function sampleToChunk(moov: Uint8Array, stbl: Box): { firstChunk: number; samplesPerChunk: number }[] {
  const stsc = need(moov, stbl, 'stsc');
  const count = stsc.end - stsc.start >= 8 ? readU32(moov, stsc.start + 4) : 0;
  if (stsc.end - stsc.start < 8 + 12 * count) throw damaged('MP4 sample-to-chunk table is cut off');
  const runs = [];
  for (let i = 0; i < count; i++) {
    const firstChunk = readU32(moov, stsc.start + 8 + 12 * i);
    const samplesPerChunk = readU32(moov, stsc.start + 12 + 12 * i);
    const previous = runs[runs.length - 1];
    if (previous ? firstChunk <= previous.firstChunk : firstChunk !== 1) {
      throw damaged('MP4 sample-to-chunk table is out of order');
    }
    runs.push({ firstChunk, samplesPerChunk });
  }
  return runs;
}

/**
 * A cut-off upload loses the end of the media data, and when `mdat` says "to the end of the file"
 * (size 0) the box walk cannot see it: every chunk must therefore end inside the file. A chunk holds
 * the samples `stsc` gives it, of the sizes `stsz` gives, from its offset in `stco`/`co64`; tables
 * that do not account for exactly the track's samples are refused rather than guessed at.
 */
function checkChunksInsideFile(moov: Uint8Array, stbl: Box, fileSize: number): void {
  const offsets = chunkOffsets(moov, stbl);
  const runs = sampleToChunk(moov, stbl);
  const sizes = sampleSizes(moov, need(moov, stbl, 'stsz'));
  const disagree = () => damaged('MP4 sample-to-chunk table disagrees with the sample sizes');
  let sample = 0;
  for (let r = 0; r < runs.length; r++) {
    const { firstChunk, samplesPerChunk } = runs[r]!;
    const lastChunk = r + 1 < runs.length ? runs[r + 1]!.firstChunk - 1 : offsets.length;
    if (lastChunk > offsets.length) throw disagree();
    for (let chunk = firstChunk; chunk <= lastChunk; chunk++) {
      const offset = offsets[chunk - 1]!;
      let end = offset;
      for (let k = 0; k < samplesPerChunk; k++) {
        if (sample >= sizes.count) throw disagree();
        end += sizes.sizeOf(sample++);
      }
      if (offset >= fileSize || end > fileSize) {
        throw damaged('MP4 is cut off: media data runs past the end of the file');
      }
    }
  }
  if (sample !== sizes.count) throw disagree();
}

function stblOf(moov: Uint8Array, trak: Box): Box | undefined {
  let box: Box | undefined = trak;
  for (const type of ['mdia', 'minf', 'stbl']) {
    box = box && childBoxes(moov, box.start, box.end).find((b) => b.type === type);
  }
  return box;
}

/** Whether a track's sample table has the three tables the chunk check reads (a `stz2` track has not). */
function hasSampleTables(moov: Uint8Array, stbl: Box): boolean {
  const types = new Set(childBoxes(moov, stbl.start, stbl.end).map((b) => b.type));
  return types.has('stsz') && types.has('stsc') && (types.has('stco') || types.has('co64'));
}

function damaged(detail: string): Mp4Problem {
  return new Mp4Problem('INVALID_FILE_CONTENT', detail);
}

function handlerOf(moov: Uint8Array, trak: Box): string | null {
  const mdia = childBoxes(moov, trak.start, trak.end).find((b) => b.type === 'mdia');
  if (!mdia) return null;
  const hdlr = childBoxes(moov, mdia.start, mdia.end).find((b) => b.type === 'hdlr');
  // hdlr: version/flags (4), pre_defined (4), handler_type (4).
  if (!hdlr || hdlr.end - hdlr.start < 12) return null;
  return fourcc(moov, hdlr.start + 8);
}

function need(bytes: Uint8Array, parent: Box, type: string): Box {
  const box = childBoxes(bytes, parent.start, parent.end).find((b) => b.type === type);
  if (!box) throw new Mp4Problem('INVALID_FILE_CONTENT', `MP4 video track has no ${type} box`);
  return box;
}

/** The boxes directly inside [start, end) of an in-memory payload. */
function childBoxes(bytes: Uint8Array, start: number, end: number): Box[] {
  const boxes: Box[] = [];
  let position = start;
  while (position + 8 <= end) {
    let size = readU32(bytes, position);
    const type = fourcc(bytes, position + 4);
    let headerLength = 8;
    if (size === 1) {
      if (position + 16 > end) break;
      size = readU64(bytes, position + 8);
      headerLength = 16;
    } else if (size === 0) {
      size = end - position;
    }
    if (size < headerLength || position + size > end) {
      throw new Mp4Problem('INVALID_FILE_CONTENT', `MP4 box ${printable(type)} runs past its parent`);
    }
    boxes.push({ type, start: position + headerLength, end: position + size });
    position += size;
  }
  return boxes;
}

function brandsOf(ftyp: Uint8Array): string[] {
  const brands = [fourcc(ftyp, 0)];
  for (let i = 8; i + 4 <= ftyp.length; i += 4) brands.push(fourcc(ftyp, i));
  return brands;
}

function readU16(bytes: Uint8Array, at: number): number {
  return (bytes[at]! << 8) | bytes[at + 1]!;
}

function readU32(bytes: Uint8Array, at: number): number {
  return ((bytes[at]! << 24) | (bytes[at + 1]! << 16) | (bytes[at + 2]! << 8) | bytes[at + 3]!) >>> 0;
}

function readU64(bytes: Uint8Array, at: number): number {
  const high = readU32(bytes, at);
  if (high >= 0x200000) throw new Mp4Problem('INVALID_FILE_CONTENT', 'MP4 size field is out of range');
  return high * 2 ** 32 + readU32(bytes, at + 4);
}

function fourcc(bytes: Uint8Array, at: number): string {
  if (at + 4 > bytes.length) return '';
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

/** Box types come from the file: keep error messages printable. */
function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? type : '(unreadable)';
}
