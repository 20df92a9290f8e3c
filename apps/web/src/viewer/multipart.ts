/** The bytes of the first part of a `multipart/related` answer (WADO-RS sends one part per instance). */
export function firstPart(body: ArrayBuffer, contentType: string): ArrayBuffer {
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary) return body;
  const bytes = new Uint8Array(body);
  const headerEnd = indexOf(bytes, encode('\r\n\r\n'), 0);
  if (headerEnd < 0) throw new Error('multipart answer without part headers');
  const start = headerEnd + 4;
  const end = indexOf(bytes, encode(`\r\n--${boundary}`), start);
  if (end < 0) throw new Error('multipart answer without a closing boundary');
  return body.slice(start, end);
}

const encode = (text: string) => new TextEncoder().encode(text);

function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0];
  outer: for (let i = haystack.indexOf(first!, from); i >= 0; i = haystack.indexOf(first!, i + 1)) {
    if (i + needle.length > haystack.length) return -1;
    for (let j = 1; j < needle.length; j++) if (haystack[i + j] !== needle[j]) continue outer;
    return i;
  }
  return -1;
}
