import type { ErrorType } from '@imaging-inbox/contract';

/**
 * What kind of failure a domain error is, in terms every transport can map: `http/` turns it into a
 * status code (412, 401, 413…), `dimse/` into a DIMSE status. No transport detail lives here.
 */
export type ErrorKind =
  /** The request was understood and refused by a rule (the default; api/v3 answers 412). */
  | 'refused'
  /** No valid session or token: the caller must sign in again. */
  | 'unauthenticated'
  /** The body or file is larger than the server accepts. */
  | 'too_large'
  /** Other work on the same object is running; retry later. */
  | 'busy'
  /** Too many attempts in a short time. */
  | 'rate_limited'
  /** The caller asked for a representation this object cannot be given in. */
  | 'not_acceptable'
  /** The body comes in a media type this operation does not take. */
  | 'unsupported_media'
  /** The server failed (lost or unreadable stored data): not the caller's fault. */
  | 'internal';

/** The kind an error type has unless its thrower says otherwise. */
const DEFAULT_KIND: Partial<Record<ErrorType, ErrorKind>> = {
  FILE_TOO_LARGE: 'too_large',
  DECOMPRESSION_LIMIT: 'too_large',
  RATE_LIMITED: 'rate_limited',
  UPLOAD_CHUNK_IN_PROGRESS: 'busy',
  INTERNAL: 'internal',
};

/**
 * The one error services, ingest, imaging and protocol code throw: a stable error type from the
 * contract, an optional sub-type (which field, which rule) and data for the caller.
 */
export class DomainError extends Error {
  readonly kind: ErrorKind;

  constructor(
    readonly errorType: ErrorType,
    readonly subtype: string | null = null,
    readonly data: unknown = null,
    kind?: ErrorKind,
  ) {
    super(subtype ? `${errorType}: ${subtype}` : errorType);
    this.kind = kind ?? DEFAULT_KIND[errorType] ?? 'refused';
  }
}

/** The input (or the caller) was refused, as opposed to the server failing to do its part. */
export const isRefusal = (error: unknown): error is DomainError =>
  error instanceof DomainError && error.kind !== 'internal';

export const notFound = (what?: string) => new DomainError('NOT_FOUND', what ?? null);
export const notPermitted = (what?: string) => new DomainError('NOT_PERMITTED', what ?? null);
export const missingFields = (fields: string[]) =>
  new DomainError('MISSING_FIELDS', fields.join(','), fields);
export const invalidField = (field: string, why?: unknown) =>
  new DomainError('INVALID_FIELD', field, why ?? null);
export const sessionExpired = (why: string) => new DomainError('EXPIRED', why, null, 'unauthenticated');
export const tooLarge = (why: string, data?: unknown) => new DomainError('FILE_TOO_LARGE', why, data ?? null);
export const internal = (why: string) => new DomainError('INTERNAL', why);
export const notAcceptable = (errorType: ErrorType, why: string, data?: unknown) =>
  new DomainError(errorType, why, data ?? null, 'not_acceptable');
