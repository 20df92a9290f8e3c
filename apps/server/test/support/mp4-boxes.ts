/**
 * Edits of real MP4 files for the box reader's tests: the forms ffmpeg does not write for a small
 * clip (64-bit chunk offsets, 64-bit box sizes) and damage a real upload can have (a cut inside the
 * last chunk behind an `mdat` of size 0, a zero timescale, sample tables that disagree).
 *
 * The box tree is parsed down to the sample tables, edited, and written again. Edits that change the
 * length of `moov` need it after `mdat` (ffmpeg's default): the chunk offsets then stay true.
 */

export interface Mp4Box {
  type: string;
  /** Written with a 64-bit size (`size == 1`, then the largesize) even when 32 bits would do. */
  large?: boolean;
  /** A leaf's payload; a container has children instead. */
  payload?: Uint8Array;
  children?: Mp4Box[];
}

/** Boxes that hold only boxes, down to the sample tables. */
const CONTAINERS = new Set(['moov', 'trak', 'mdia', 'minf', 'stbl', 'edts', 'dinf']);

export function parseBoxes(bytes: Uint8Array, start = 0, end = bytes.length): Mp4Box[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxes: Mp4Box[] = [];
  let position = start;
  while (position < end) {
    let size = view.getUint32(position);
    const type = String.fromCharCode(...bytes.subarray(position + 4, position + 8));
    let header = 8;
    if (size === 1) {
      size = Number(view.getBigUint64(position + 8));
      header = 16;
    } else if (size === 0) {
      size = end - position;
    }
    const box: Mp4Box = { type, large: header === 16 };
    if (CONTAINERS.has(type)) box.children = parseBoxes(bytes, position + header, position + size);
    else box.payload = bytes.slice(position + header, position + size);
    boxes.push(box);
    position += size;
  }
  return boxes;
}

export function writeBoxes(boxes: Mp4Box[]): Uint8Array {
  const parts = boxes.map((box) => {
    const payload = box.children ? writeBoxes(box.children) : box.payload!;
    const header = box.large ? 16 : 8;
    const out = new Uint8Array(header + payload.length);
    const view = new DataView(out.buffer);
    if (box.large) {
      view.setUint32(0, 1);
      view.setBigUint64(8, BigInt(out.length));
    } else {
      view.setUint32(0, out.length);
    }
    out.set(new TextEncoder().encode(box.type), 4);
    out.set(payload, header);
    return out;
  });
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Every box of `type` anywhere in the tree, in file order. */
export function findBoxes(boxes: Mp4Box[], type: string): Mp4Box[] {
  return boxes.flatMap((b) => [...(b.type === type ? [b] : []), ...findBoxes(b.children ?? [], type)]);
}

/** The payload of the first `type` box (the video track's, in an ffmpeg file with one track). */
export function payloadOf(boxes: Mp4Box[], type: string): DataView {
  const [box] = findBoxes(boxes, type);
  if (!box?.payload) throw new Error(`no ${type} box`);
  return new DataView(box.payload.buffer, box.payload.byteOffset, box.payload.byteLength);
}

/** Applies `edit` to the parsed tree of `mp4` and answers the file written again. */
export function editMp4(mp4: Uint8Array, edit: (boxes: Mp4Box[]) => void): Uint8Array {
  const boxes = parseBoxes(mp4);
  edit(boxes);
  return writeBoxes(boxes);
}

/** Throws unless `moov` follows `mdat`, so that a longer `moov` moves no media data. */
export function assertMovieLast(boxes: Mp4Box[]): void {
  const types = boxes.map((b) => b.type);
  if (types.indexOf('moov') < types.indexOf('mdat')) throw new Error('moov must follow mdat for this edit');
}

/** Every `stco` chunk offset table as `co64`, the same offsets in 64 bits. */
export function withCo64(mp4: Uint8Array): Uint8Array {
  return editMp4(mp4, (boxes) => {
    assertMovieLast(boxes);
    for (const box of findBoxes(boxes, 'stco')) {
      const stco = new DataView(box.payload!.buffer, box.payload!.byteOffset, box.payload!.byteLength);
      const count = stco.getUint32(4);
      const co64 = new Uint8Array(8 + 8 * count);
      const view = new DataView(co64.buffer);
      view.setUint32(4, count);
      for (let i = 0; i < count; i++) view.setBigUint64(8 + 8 * i, BigInt(stco.getUint32(8 + 4 * i)));
      box.type = 'co64';
      box.payload = co64;
    }
  });
}

/**
 * 64-bit sizes: `mdat` takes the 8-byte `free` box ffmpeg leaves before it for exactly this (so no
 * chunk moves), and `moov` and its sample tables are written with largesizes too.
 */
export function withLargeSizes(mp4: Uint8Array): Uint8Array {
  return editMp4(mp4, (boxes) => {
    assertMovieLast(boxes);
    const free = boxes.findIndex((b) => b.type === 'free' && b.payload?.length === 0);
    if (boxes[free + 1]?.type !== 'mdat') throw new Error('no 8-byte free box before mdat');
    boxes.splice(free, 1);
    for (const box of [
      ...findBoxes(boxes, 'mdat'),
      ...findBoxes(boxes, 'moov'),
      ...findBoxes(boxes, 'stbl'),
      ...findBoxes(boxes, 'stsz'),
    ]) {
      box.large = true;
    }
  });
}

/**
 * The file cut `cut` bytes short, its `mdat` (the last box: movie box first) saying "to the end of
 * the file" (size 0), so only the chunk tables can tell that media data is missing.
 */
export function cutInsideOpenMdat(mp4: Uint8Array, cut: number): Uint8Array {
  const boxes = parseBoxes(mp4);
  if (boxes[boxes.length - 1]?.type !== 'mdat') throw new Error('mdat must be the last box');
  const mdatPayload = boxes[boxes.length - 1]!.payload!.length;
  const mdatAt = mp4.length - mdatPayload - 8;
  const out = mp4.slice(0, mp4.length - cut);
  new DataView(out.buffer).setUint32(mdatAt, 0);
  return out;
}
