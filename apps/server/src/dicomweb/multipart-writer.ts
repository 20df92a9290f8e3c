import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

export interface Part {
  contentType: string;
  /** A stored blob to stream (read only when the client is ready for it), or bytes already in memory. */
  open?: () => AsyncIterable<Uint8Array>;
  bytes?: Buffer;
  location?: string;
}

export function newBoundary(): string {
  return `inbox-${randomBytes(12).toString('hex')}`;
}

/**
 * A multipart/related body streamed part by part, so a whole study goes out without being held in
 * memory; each file is read from disk only when the client is ready for it.
 */
export function multipartStream(parts: Iterable<Part> | AsyncIterable<Part>, boundary: string): Readable {
  async function* generate() {
    for await (const part of parts) {
      const headers = [`--${boundary}`, `Content-Type: ${part.contentType}`];
      if (part.location) headers.push(`Content-Location: ${part.location}`);
      yield Buffer.from(`${headers.join('\r\n')}\r\n\r\n`);
      if (part.bytes) yield part.bytes;
      else if (part.open) yield* part.open();
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return Readable.from(generate());
}
