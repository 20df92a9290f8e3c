/**
 * Encapsulated Pixel Data (PS3.5 A.4), spelled once for the three places that meet it: writing a
 * wrapped video (`wrap-video.ts`), finding a stored video's stream in a file (`dicomweb/video-stream.ts`,
 * which reads small pieces of the file) and proving an uploaded file's fragments are all present
 * (`parse.ts`, which walks the file in memory). So the helpers here work on bytes and leave the I/O
 * to their callers.
 *
 * Layout: the Pixel Data element (7FE0,0010) OB with undefined length, then items (FFFE,E000), each
 * an 8-byte header and its bytes (the Basic Offset Table first, then the fragments), then the
 * Sequence Delimitation Item (FFFE,E0DD) with length 0. Encapsulated syntaxes are all little endian.
 */

export const UNDEFINED_LENGTH = 0xffffffff;

/** Length of an item or delimiter header: tag (4 bytes) and length (4 bytes). */
export const ITEM_HEADER_BYTES = 8;

/** Pixel Data (7FE0,0010), VR OB, 2 reserved bytes, undefined length: the 12 bytes before the items. */
export const ENCAPSULATED_PIXEL_DATA_HEADER: Uint8Array = Uint8Array.of(
  0xe0,
  0x7f,
  0x10,
  0x00,
  0x4f,
  0x42,
  0x00,
  0x00,
  0xff,
  0xff,
  0xff,
  0xff,
);

const ITEM_GROUP = 0xfffe;
const ITEM_ELEMENT = 0xe000;
const SEQUENCE_DELIMITER_ELEMENT = 0xe0dd;

/** An item's header: (FFFE,E000) and the length of the bytes that follow it. */
export function itemHeader(length: number): Uint8Array {
  return header(ITEM_ELEMENT, length);
}

/** The Sequence Delimitation Item that ends the fragments. */
export function sequenceDelimiter(): Uint8Array {
  return header(SEQUENCE_DELIMITER_ELEMENT, 0);
}

/** What the 8 bytes at `at` of `bytes` are: an item of `length` bytes, the delimiter, or neither (null). */
export type ItemHeader = { kind: 'item'; length: number } | { kind: 'delimiter' };

export function readItemHeader(bytes: Uint8Array, at: number): ItemHeader | null {
  if (at + ITEM_HEADER_BYTES > bytes.length) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset + at, ITEM_HEADER_BYTES);
  if (view.getUint16(0, true) !== ITEM_GROUP) return null;
  const element = view.getUint16(2, true);
  const length = view.getUint32(4, true);
  if (element === SEQUENCE_DELIMITER_ELEMENT) return { kind: 'delimiter' };
  // A fragment always has an explicit length; an undefined one is not encapsulated pixel data.
  if (element !== ITEM_ELEMENT || length === UNDEFINED_LENGTH) return null;
  return { kind: 'item', length };
}

function header(element: number, length: number): Uint8Array {
  const bytes = new Uint8Array(ITEM_HEADER_BYTES);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, ITEM_GROUP, true);
  view.setUint16(2, element, true);
  view.setUint32(4, length, true);
  return bytes;
}
