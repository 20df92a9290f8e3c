/**
 * Bytes the upload wizard reads lazily: a picked file, a slice of a ZIP, or an entry inflated on the
 * fly. Header parsing reads only a prefix, so none of these is ever read whole while scanning.
 */
export interface ByteSource {
  /** Up to `length` bytes from `from` (fewer at the end). */
  read(from: number, length: number): Promise<Uint8Array>;
  /** The bytes from `from` to the end, read as the stream is pulled. */
  stream(from: number): ReadableStream<Uint8Array>;
}

/** A Blob (File or slice) as a source: both calls are slices, nothing else is read. */
export function blobSource(blob: Blob): ByteSource {
  return {
    read: async (from, length) => new Uint8Array(await blob.slice(from, from + length).arrayBuffer()),
    stream: (from) => blob.slice(from).stream(),
  };
}

/**
 * A source that can only be streamed from its start (an inflated ZIP entry): reading from an offset
 * pulls and drops the bytes before it, which is fine for the header prefixes it is used for.
 */
export function streamSource(open: () => ReadableStream<Uint8Array>): ByteSource {
  const stream = (from: number) => (from === 0 ? open() : open().pipeThrough(skipBytes(from)));
  return { read: (from, length) => readPrefix(stream(from), length), stream };
}

/**
 * Reads the first `limit` bytes of `stream` (all of it when shorter), then cancels the rest. A
 * stream that fails after giving some bytes answers those: a deflated DICOM dataset is often
 * followed by a pad byte the inflater calls junk, and a header needs only what came before.
 */
export async function readPrefix(stream: ReadableStream<Uint8Array>, limit: number): Promise<Uint8Array> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  try {
    while (length < limit) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      length += value.length;
    }
  } catch (error) {
    if (length === 0) throw error;
  } finally {
    // Stops the inflater and the file read behind it; the bytes past the prefix are never read.
    void reader.cancel().catch(() => undefined);
  }
  const out = new Uint8Array(Math.min(length, limit));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at === out.length) break;
  }
  return out;
}

function skipBytes(count: number): TransformStream<Uint8Array, Uint8Array> {
  let left = count;
  return new TransformStream({
    transform(chunk, controller) {
      if (left >= chunk.length) {
        left -= chunk.length;
        return;
      }
      controller.enqueue(left > 0 ? chunk.subarray(left) : chunk);
      left = 0;
    },
  });
}
