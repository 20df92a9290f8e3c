import type { DomainError, ErrorKind } from '../domain/errors.js';

/** api/v3 answers a refusal with 412 and a stable error_type; the other kinds keep their HTTP meaning. */
const STATUS_OF_KIND: Record<ErrorKind, number> = {
  refused: 412,
  unauthenticated: 401,
  too_large: 413,
  busy: 409,
  rate_limited: 429,
  not_acceptable: 406,
  unsupported_media: 415,
  internal: 500,
};

/** DICOMweb clients expect plain HTTP statuses rather than api/v3's 412. */
function dicomwebRefusalStatus(error: DomainError): number {
  if (error.errorType === 'NOT_FOUND') return 404;
  if (error.errorType === 'NOT_PERMITTED') return 403;
  return 400;
}

/** The HTTP status a domain error answers on this URL. */
export function httpStatusOf(error: DomainError, url: string): number {
  if (error.kind === 'refused' && url.startsWith('/dicomweb/')) return dicomwebRefusalStatus(error);
  return STATUS_OF_KIND[error.kind];
}

/** The api/v3 error body: `{status: "ERROR", error_type, error_subtype, error_data}`. */
export function errorBody(error: DomainError) {
  return {
    status: 'ERROR' as const,
    error_type: error.errorType,
    error_subtype: error.subtype,
    error_data: error.data,
  };
}
