import type { FastifyRequest } from 'fastify';
import { DomainError, invalidField, tooLarge } from '../domain/errors.js';
import { BodyTooLargeError } from '../storage/blob-store.js';
import type { BlobStore, TempFile } from '../storage/blob-store.js';
import type { Params } from './params.js';

/** What receiving needs of the blob store: staging a body and dropping it. */
export type TempWriter = Pick<BlobStore, 'writeTemp' | 'discard'>;

const missingFile = () => new DomainError('MISSING_FIELDS', 'file', ['file']);

/**
 * A body over its limit, whether our writer stopped it (BodyTooLargeError) or @fastify/multipart
 * did (FST_REQ_FILE_TOO_LARGE), becomes the caller's one FILE_TOO_LARGE error; anything else stays.
 */
export function asTooLarge(error: unknown, why: string): unknown {
  const code = (error as { code?: string }).code;
  if (error instanceof BodyTooLargeError || code === 'FST_REQ_FILE_TOO_LARGE') return tooLarge(why);
  return error;
}

/**
 * The one multipart part named `file`, streamed to a temp file of at most maxBytes (a larger one is
 * discarded and refused), with the name the client gave it.
 */
export async function receiveFilePart(
  blobs: TempWriter,
  request: FastifyRequest,
  maxBytes: number,
): Promise<{ temp: TempFile; filename: string }> {
  if (!request.isMultipart()) throw missingFile();
  try {
    const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
    if (!part || part.fieldname !== 'file') throw missingFile();
    const temp = await blobs.writeTemp(part.file, maxBytes);
    if (part.file.truncated) {
      await blobs.discard(temp);
      throw new BodyTooLargeError();
    }
    return { temp, filename: part.filename };
  } catch (error) {
    throw asTooLarge(error, `at most ${maxBytes} bytes`);
  }
}

/** The bounds of a multipart form and the words of its refusals. */
export interface FormLimits {
  maxFileBytes: number;
  maxFiles: number;
  maxFields: number;
  /** The largest field value, in bytes. */
  fieldBytes: number;
  /** Why a file part not named `file` is refused. */
  fileFieldWhy: string;
  /** Why more than maxFiles files are refused. */
  tooManyFilesWhy: string;
  /** Why a file over maxFileBytes is refused. */
  tooLargeWhy: string;
}

/**
 * A multipart form: its fields into a map and each part named `file` into a temp file. Each temp
 * file is handed to `onFile` as soon as it exists, before any check can refuse the body, so the
 * caller holds (and discards) every temp file even when this throws.
 */
export async function receiveFormParts(
  blobs: TempWriter,
  request: FastifyRequest,
  limits: FormLimits,
  onFile: (temp: TempFile, filename: string) => void,
): Promise<Params> {
  if (!request.isMultipart()) throw missingFile();
  const fields: Params = {};
  try {
    const parts = request.parts({
      limits: {
        fileSize: limits.maxFileBytes,
        files: limits.maxFiles,
        fields: limits.maxFields,
        fieldSize: limits.fieldBytes,
      },
    });
    for await (const part of parts) {
      if (part.type === 'field') {
        fields[part.fieldname] = typeof part.value === 'string' ? part.value : String(part.value);
        continue;
      }
      if (part.fieldname !== 'file') {
        part.file.resume();
        throw invalidField(part.fieldname, limits.fileFieldWhy);
      }
      const temp = await blobs.writeTemp(part.file, limits.maxFileBytes);
      onFile(temp, part.filename);
      if (part.file.truncated) throw new BodyTooLargeError();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') throw invalidField('file', limits.tooManyFilesWhy);
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw invalidField('fields', 'too many fields');
    throw asTooLarge(error, limits.tooLargeWhy);
  }
  return fields;
}
