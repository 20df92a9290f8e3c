import type { ErrorType } from '@imaging-inbox/contract';

/**
 * The one error the HTTP layer maps to an answer: 412 with a stable error_type by default
 * (api/v3 convention), 401 for session problems, 413 for oversized bodies.
 */
export class ApiError extends Error {
  constructor(
    readonly errorType: ErrorType,
    readonly httpStatus = 412,
    readonly subtype: string | null = null,
    readonly data: unknown = null,
  ) {
    super(subtype ? `${errorType}: ${subtype}` : errorType);
  }
}

export const notFound = (what?: string) => new ApiError('NOT_FOUND', 412, what ?? null);
export const notPermitted = (what?: string) => new ApiError('NOT_PERMITTED', 412, what ?? null);
export const missingFields = (fields: string[]) =>
  new ApiError('MISSING_FIELDS', 412, fields.join(','), fields);
export const invalidField = (field: string, why: string) => new ApiError('INVALID_FIELD', 412, field, why);
