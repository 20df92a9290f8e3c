import type { ApiErrorBody } from '@imaging-inbox/contract';
/** Codes the client itself produces, beside the server's error types (SPEC.md section 7). */
export const CLIENT_ERROR_CODES = {
  network: 'NETWORK_ERROR',
  unexpected: 'UNEXPECTED_ERROR',
  unauthorized: 'UNAUTHORIZED',
} as const;
export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/**
 * Every rejected api call carries one of these. `code` is the 412 error_type (an ErrorType of the
 * contract), a ClientErrorCode, or the status text of a 404/405.
 */
export class ApiError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    readonly body?: unknown,
  ) {
    super(code);
    this.name = 'ApiError';
  }
}

export function errorCode(error: unknown): string {
  return error instanceof ApiError ? error.code : CLIENT_ERROR_CODES.unexpected;
}

/** The api/v3 error body of a refused call (subtype and data name the field), if it was one. */
export function errorBody(error: unknown): ApiErrorBody | undefined {
  return error instanceof ApiError ? (error.body as ApiErrorBody | undefined) : undefined;
}
