import { z } from 'zod';
import { optionalText, reportInvalid, requiredText } from './api-params.js';

/** Request schemas of resumable upload sessions (api-params.ts explains the codecs). */

/** A byte count or offset: up to 16 digits. */
const wholeBytes = (name: string) =>
  requiredText().transform((raw, ctx) =>
    /^\d{1,16}$/.test(raw) ? Number(raw) : reportInvalid(ctx, name, 'a whole number of bytes'),
  );

/**
 * upload/session/create: the file's size and, to resume later, the SHA-256 of its head. A signed-in
 * upload names its group (namespace_id); a link upload goes to the link's group.
 */
export const uploadSessionCreateRequest = z.object({
  size: wholeBytes('size'),
  head_sha256: optionalText(),
  namespace_id: optionalText(),
});

/** upload/session/status: where a session stands (with head_sha256: may this file resume it). */
export const uploadSessionStatusRequest = z.object({ id: requiredText(), head_sha256: optionalText() });

/** upload/session/chunk: the bytes at `offset` come as the raw body. */
export const uploadSessionChunkRequest = z.object({ id: requiredText(), offset: wholeBytes('offset') });

/** upload/session/complete. */
export const uploadSessionCompleteRequest = z.object({ id: requiredText() });
