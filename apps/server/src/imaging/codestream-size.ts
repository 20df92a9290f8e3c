/**
 * The picture size a compressed frame's own codestream declares, read from its frame header (JPEG
 * and JPEG-LS SOFn, JPEG 2000 SIZ) before any decoder sees it. A decoder allocates what the
 * codestream declares, not what the DICOM header says, so a frame claiming 60,000 × 60,000 pixels
 * behind a 512 × 512 header would make it allocate gigabytes; `codecs.ts` refuses such a frame.
 * Undefined when no header is found (RLE has none: its decoder fills the DICOM size).
 */
export function codestreamSize(bytes: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return jpegFrameSize(bytes, view);
  // JPEG 2000: SIZ follows SOC directly, in a raw codestream or inside a JP2 file's jp2c box.
  const limit = Math.min(bytes.length - 22, 64 * 1024);
  for (let at = 0; at < limit; at++) {
    if (bytes[at] === 0xff && bytes[at + 1] === 0x4f && bytes[at + 2] === 0xff && bytes[at + 3] === 0x51) {
      const siz = at + 4; // Lsiz, Rsiz, then Xsiz, Ysiz, XOsiz, YOsiz
      return {
        width: view.getUint32(siz + 4) - view.getUint32(siz + 12),
        height: view.getUint32(siz + 8) - view.getUint32(siz + 16),
      };
    }
  }
  return undefined;
}

/** Walks JPEG marker segments to the first SOFn (SOF55 for JPEG-LS): P, Y, X after its length. */
function jpegFrameSize(bytes: Uint8Array, view: DataView): { width: number; height: number } | undefined {
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    const sof = (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker)) || marker === 0xf7;
    if (sof)
      return at + 9 <= bytes.length
        ? { height: view.getUint16(at + 5), width: view.getUint16(at + 7) }
        : undefined;
    if (marker === 0xda || marker === 0xd9) return undefined; // scan or end before any frame header
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}
