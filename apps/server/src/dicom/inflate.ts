/**
 * Inflating Deflated Explicit VR Little Endian datasets (1.2.840.10008.1.2.1.99) with a ceiling.
 *
 * Deflate reaches about 1,000:1, so a 1 MB file can stand for a 1 GB dataset. Inflated whole, in
 * memory, on the main thread (zlib's sync call, or dicom-parser's and dcmjs's own fallbacks), one
 * such file stalled every request and association for tens of seconds and grew the process by
 * gigabytes. Two rules bound it:
 * - a ceiling: an inflated dataset may be at most `maxBytes` (the server passes `UPLOAD_MAX_BYTES`:
 *   a deflated file carries no more than an uncompressed upload could) and at most
 *   `MAX_INFLATE_RATIO` times its deflated size, except that any dataset up to `INFLATE_FLOOR`
 *   passes (blank images deflate far better than 100:1 and are small);
 * - where: received files (`expandDeflated`) are inflated through zlib's streaming API, whose work
 *   runs on the libuv thread pool, a chunk at a time, stopping as soon as the ceiling is passed. The
 *   synchronous hook (`inflateSync`, given to dicom-parser) keeps the ratio ceiling and serves the
 *   reads of stored files, which passed it when they came in, and tests.
 */
import zlib from 'node:zlib';
import dicomParser from 'dicom-parser';
import { DicomParseError } from './errors.js';

export const DEFLATED_EXPLICIT_LE = '1.2.840.10008.1.2.1.99';
/** Largest inflated/deflated size ratio accepted beyond the floor. */
export const MAX_INFLATE_RATIO = 100;
/** Inflated datasets up to this size pass whatever their ratio. */
export const INFLATE_FLOOR = 16 * 1024 * 1024;
/** What the streaming inflater hands back per step: fewer, larger steps on the main thread. */
const CHUNK = 1024 * 1024;

/** The most bytes `deflatedBytes` of deflated dataset may inflate to. */
export function inflateCeiling(deflatedBytes: number, maxBytes = Number.MAX_SAFE_INTEGER): number {
  return Math.min(maxBytes, Math.max(INFLATE_FLOOR, deflatedBytes * MAX_INFLATE_RATIO));
}

function tooLarge(ceiling: number): DicomParseError {
  return new DicomParseError(
    'DECOMPRESSION_LIMIT',
    `the deflated dataset inflates to more than ${ceiling} bytes (at most ${MAX_INFLATE_RATIO} times its size beyond ${INFLATE_FLOOR} bytes)`,
  );
}

/** Where the dataset of a deflated Part-10 file starts, or undefined for any other file. */
function deflatedDatasetStart(file: Uint8Array): number | undefined {
  if (file.length < 132) return undefined;
  // Most files are not deflated: the syntax's UID missing from the meta group's bytes says so
  // without parsing the group (every received instance came here, and that parse showed).
  const metaEnd = metaGroupEnd(file);
  if (metaEnd !== undefined) {
    const meta = Buffer.from(file.buffer, file.byteOffset, Math.min(metaEnd, file.length));
    if (meta.indexOf(DEFLATED_EXPLICIT_LE, 132, 'latin1') === -1) return undefined;
  }
  try {
    const meta = dicomParser.readPart10Header(file);
    const syntax = meta.string('x00020010')?.replace(/[\s\0]+$/, '');
    // readPart10Header leaves the meta header's end on the data set it answers.
    return syntax === DEFLATED_EXPLICIT_LE ? (meta as unknown as { position: number }).position : undefined;
  } catch {
    return undefined; // not a readable Part-10 header: the parse that follows says why
  }
}

/**
 * Where the File Meta Information group ends, from its (0002,0000) group length when it comes
 * first, as Part 10 requires; undefined without one.
 */
function metaGroupEnd(file: Uint8Array): number | undefined {
  if (file.length < 144) return undefined;
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const isGroupLength =
    view.getUint16(132, true) === 0x0002 &&
    view.getUint16(134, true) === 0x0000 &&
    file[136] === 0x55 && // 'U'
    file[137] === 0x4c && // 'L'
    view.getUint16(138, true) === 4;
  return isGroupLength ? 144 + view.getUint32(140, true) : undefined;
}

/**
 * A deflated Part-10 file with its dataset inflated off the main thread (meta header bytes followed
 * by the inflated dataset, as dicom-parser's `inflater` hands it back), or undefined when the file
 * is not deflated. Throws DicomParseError DECOMPRESSION_LIMIT past the ceiling, INVALID_DICOM for a
 * broken or truncated deflate stream.
 */
export async function expandDeflated(file: Uint8Array, maxBytes: number): Promise<Uint8Array | undefined> {
  const start = deflatedDatasetStart(file);
  if (start === undefined) return undefined;
  const deflated = file.subarray(start);
  const ceiling = inflateCeiling(deflated.length, maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  await new Promise<void>((resolve, reject) => {
    const inflater = zlib.createInflateRaw({ chunkSize: CHUNK });
    inflater.on('data', (chunk: Buffer) => {
      total += chunk.length;
      if (total > ceiling) {
        chunks.length = 0;
        inflater.destroy(tooLarge(ceiling));
        return;
      }
      chunks.push(chunk);
    });
    inflater.once('error', (error) => {
      chunks.length = 0;
      reject(
        error instanceof DicomParseError
          ? error
          : new DicomParseError('INVALID_DICOM', `the deflated dataset does not inflate: ${error.message}`),
      );
    });
    inflater.once('end', resolve);
    inflater.end(deflated);
  });
  const full = Buffer.allocUnsafe(start + total);
  full.set(file.subarray(0, start), 0);
  let at = start;
  for (const chunk of chunks) {
    full.set(chunk, at);
    at += chunk.length;
  }
  return full;
}

/**
 * dicom-parser's synchronous `inflater` hook, bounded by the ratio ceiling (the stream is refused
 * as soon as its output would pass it). Used for stored files and early looks at small prefixes.
 */
export function inflateSync(bytes: Uint8Array, position: number, maxBytes?: number): Uint8Array {
  const deflated = bytes.subarray(position);
  const ceiling = inflateCeiling(deflated.length, maxBytes);
  let inflated: Buffer;
  try {
    inflated = zlib.inflateRawSync(deflated, { maxOutputLength: ceiling });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(ceiling);
    throw error;
  }
  const full = new Uint8Array(position + inflated.length);
  full.set(bytes.subarray(0, position), 0);
  full.set(inflated, position);
  return full;
}

/** An `inflater` for dicom-parser that hands back a dataset `expandDeflated` already inflated. */
export function inflaterFor(
  expanded: Uint8Array | undefined,
): (bytes: Uint8Array, position: number) => Uint8Array {
  return expanded ? () => expanded : (bytes, position) => inflateSync(bytes, position);
}

/**
 * A file `expandDeflated` answered, relabelled so that readers that inflate by themselves (dcmjs,
 * whole and on the main thread) read its dataset as it now is: the Transfer Syntax UID value
 * becomes Explicit VR Little Endian padded with NULs to the same length, so no offset moves.
 * Changes `expanded` in place (it is the caller's own copy).
 */
export function relabelInflated(expanded: Uint8Array): Buffer {
  const out = Buffer.from(expanded.buffer, expanded.byteOffset, expanded.byteLength);
  const syntax = dicomParser.readPart10Header(out).elements['x00020010']!;
  out.fill(0, syntax.dataOffset, syntax.dataOffset + syntax.length);
  out.write('1.2.840.10008.1.2.1', syntax.dataOffset, 'latin1');
  return out;
}
