import { PassThrough } from 'node:stream';
import type { Readable } from 'node:stream';

export class MultipartError extends Error {}

export interface RelatedPart {
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: Readable;
}

export interface ParsedMediaType {
  type: string;
  params: Record<string, string>;
}

/** `multipart/related; type="application/dicom"; boundary=XYZ` → type and lower-cased parameter names. */
export function parseMediaType(header: string | undefined): ParsedMediaType {
  const [type = '', ...rest] = (header ?? '').split(';');
  const params: Record<string, string> = {};
  for (const piece of rest) {
    const eq = piece.indexOf('=');
    if (eq < 0) continue;
    const name = piece.slice(0, eq).trim().toLowerCase();
    let value = piece.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    params[name] = value;
  }
  return { type: type.trim().toLowerCase(), params };
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Streams a multipart/related body (RFC 2387 over RFC 2046 framing): each part's headers are parsed
 * and its body handed to `onPart` as a stream while the request is still arriving; parts are handled
 * one after the other, with backpressure, so memory holds at most one network chunk plus a delimiter.
 * @throws MultipartError on a malformed body (missing close delimiter, oversized headers, too many parts).
 */
export async function readMultipartRelated(
  source: AsyncIterable<Buffer>,
  boundary: string,
  onPart: (part: RelatedPart) => Promise<void>,
  options: { maxParts?: number } = {},
): Promise<void> {
  const maxParts = options.maxParts ?? 10_000;
  // The delimiter is CRLF "--" boundary; a leading CRLF lets the first boundary line match too.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  let buffer: Buffer = CRLF;
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'body' | 'done' = 'preamble';
  let body: PassThrough | undefined;
  let handled: Promise<void> | undefined;
  let parts = 0;

  const write = async (bytes: Buffer) => {
    const target = body;
    if (!target || bytes.length === 0 || target.destroyed) return;
    if (target.write(bytes)) return;
    // Wait for the consumer; a consumer that gave up (destroyed or stopped reading) releases us too.
    await new Promise<void>((resolve) => {
      const done = () => {
        target.off('drain', done);
        target.off('close', done);
        resolve();
      };
      target.once('drain', done);
      target.once('close', done);
    });
  };

  const endPart = async () => {
    if (!body || !handled) return;
    body.end();
    await handled;
    body = undefined;
    handled = undefined;
  };

  try {
    for await (const chunk of source) {
      buffer = buffer.length ? Buffer.concat([buffer, chunk]) : chunk;
      for (;;) {
        if (state === 'preamble' || state === 'body') {
          const at = buffer.indexOf(delimiter);
          if (at < 0) {
            // Keep a tail that could be the start of a delimiter split across chunks.
            const keep = Math.min(buffer.length, delimiter.length - 1);
            if (state === 'body') await write(buffer.subarray(0, buffer.length - keep));
            buffer = buffer.subarray(buffer.length - keep);
            break;
          }
          if (state === 'body') {
            await write(buffer.subarray(0, at));
            await endPart();
          }
          buffer = buffer.subarray(at + delimiter.length);
          state = 'after-delimiter';
        }
        if (state === 'after-delimiter') {
          if (buffer.length < 2) break;
          if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
            state = 'done';
            break;
          }
          // Transport padding (spaces, tabs) may follow the boundary before its CRLF.
          const eol = buffer.indexOf(CRLF);
          if (eol < 0) {
            if (buffer.length > 256) throw new MultipartError('malformed boundary line');
            break;
          }
          if (buffer.subarray(0, eol).toString('latin1').trim() !== '')
            throw new MultipartError('malformed boundary line');
          buffer = buffer.subarray(eol + 2);
          state = 'headers';
        }
        if (state === 'headers') {
          // A part without headers starts directly with the empty line.
          const bare = buffer.length >= 2 && buffer[0] === 0x0d && buffer[1] === 0x0a;
          const end = bare ? -2 : buffer.indexOf(HEADER_END);
          if (!bare && end < 0) {
            if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('part headers too large');
            break;
          }
          if (++parts > maxParts) throw new MultipartError(`more than ${maxParts} parts`);
          const headers = parseHeaders(bare ? '' : buffer.subarray(0, end).toString('latin1'));
          buffer = buffer.subarray(bare ? 2 : end + 4);
          const part = new PassThrough({ highWaterMark: 256 * 1024 });
          part.on('error', () => undefined);
          body = part;
          // A consumer that returns without reading everything gets the rest of its part discarded.
          handled = onPart({ headers, body: part }).finally(() => part.resume());
          handled.catch(() => undefined); // observed here, rethrown where endPart awaits it
          state = 'body';
          continue;
        }
        if (state === 'done') break;
      }
      if (state === 'done') break;
    }
    if (state !== 'done') throw new MultipartError('body ended before the closing boundary');
  } catch (error) {
    body?.destroy(error instanceof Error ? error : new Error(String(error)));
    if (handled) await handled.catch(() => undefined);
    throw error;
  }
}

function parseHeaders(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return headers;
}
