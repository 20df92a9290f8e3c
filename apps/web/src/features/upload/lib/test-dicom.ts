/** A minimal Part 10 file (explicit VR little endian) for header tests; elements in tag order. */
export function buildTestDicom(
  fields: Array<[group: number, element: number, vr: string, value: string]>,
  pixelBytes = 0,
): Uint8Array {
  const parts: number[] = [...new Array<number>(128).fill(0), ...[...'DICM'].map((c) => c.charCodeAt(0))];
  const element = (group: number, el: number, vr: string, value: string) => {
    let text = value;
    if (text.length % 2) text += vr === 'UI' ? '\0' : ' ';
    parts.push(group & 0xff, group >> 8, el & 0xff, el >> 8, vr.charCodeAt(0), vr.charCodeAt(1));
    parts.push(text.length & 0xff, text.length >> 8);
    for (const c of text) parts.push(c.charCodeAt(0));
  };
  element(0x0002, 0x0010, 'UI', '1.2.840.10008.1.2.1');
  for (const [g, e, vr, v] of fields) element(g, e, vr, v);
  if (pixelBytes > 0) {
    // (7FE0,0010) OW: reserved 2 bytes, then a 4-byte length.
    parts.push(0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x57, 0, 0);
    parts.push(
      pixelBytes & 0xff,
      (pixelBytes >> 8) & 0xff,
      (pixelBytes >> 16) & 0xff,
      (pixelBytes >>> 24) & 0xff,
    );
  }
  const out = new Uint8Array(parts.length + pixelBytes);
  out.set(parts);
  return out;
}
