import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Bytes read before deciding: the 128-byte preamble and the `DICM` magic of a Part 10 file. */
const HEAD_BYTES = 132;

/** The type an untyped upload body is taken for, by its first bytes. */
export function sniffUploadType(head: Buffer): string {
  if (head.length >= HEAD_BYTES && head.toString('latin1', 128, 132) === 'DICM') return 'application/dicom';
  // A multipart body whose header was lost still names its boundary on its first line.
  const firstLine = /^--([^\r\n]{1,70})\r\n/.exec(head.toString('latin1'));
  if (firstLine) return `multipart/form-data; boundary=${firstLine[1]}`;
  // Anything else is streamed as raw bytes: the ingest pipeline decides whether it is DICOM.
  return 'application/octet-stream';
}

/**
 * preParsing hook of the upload routes. Ambra's SDK (`Storage.Image.upload`) posts the raw file
 * with no Content-Type at all; rather than answer 415, the body's first bytes give its type.
 * The bytes read to decide are put back in front of the rest, so the body is read once.
 */
export async function typeUntypedUpload(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Readable,
): Promise<Readable> {
  if (request.headers['content-type'] !== undefined) return payload;
  const chunks = payload[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const read: Buffer[] = [];
  let size = 0;
  let ended = false;
  while (size < HEAD_BYTES) {
    const next = await chunks.next();
    if (next.done) {
      ended = true;
      break;
    }
    read.push(next.value);
    size += next.value.length;
  }
  const head = Buffer.concat(read);
  request.raw.headers['content-type'] = sniffUploadType(head);
  async function* body(): AsyncGenerator<Buffer> {
    if (head.length) yield head;
    if (ended) return;
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
  }
  return Readable.from(body(), { objectMode: false });
}
