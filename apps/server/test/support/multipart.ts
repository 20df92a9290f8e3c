/** Splits a multipart/related body into its parts (header block and raw bytes), as a client would. */
export function parseMultipart(body: Buffer, contentType: string): { headers: string; bytes: Buffer }[] {
  const boundary = /boundary=([^;]+)/.exec(contentType)![1]!.replace(/"/g, '');
  const delimiter = Buffer.from(`--${boundary}`);
  const parts: { headers: string; bytes: Buffer }[] = [];
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const next = body.indexOf(delimiter, start + delimiter.length);
    if (next === -1) break;
    const chunk = body.subarray(start + delimiter.length + 2, next - 2);
    const split = chunk.indexOf('\r\n\r\n');
    parts.push({ headers: chunk.subarray(0, split).toString(), bytes: chunk.subarray(split + 4) });
    start = next;
  }
  return parts;
}
