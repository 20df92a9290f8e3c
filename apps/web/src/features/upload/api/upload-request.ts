import type { ApiErrorBody } from '@imaging-inbox/contract';
import { ApiError, CLIENT_ERROR_CODES } from '../../../lib/api-error';
import { clearSession } from '../../../lib/storage';

/**
 * One upload call (whole file, chunk, session step or wrap). Unlike `apiPost` it accepts 200–202
 * and keeps the `error_type` of any refusal (412, and 413 for sizes), since the upload queue
 * decides per error whether to retry. A 401 clears the stored session without navigating, so an
 * upload running behind another page fails instead of yanking the user away. Other failures:
 * NETWORK_ERROR (status 0) or the status; an abort rethrows the AbortError.
 */
export async function uploadRequest<T>(url: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      ...init,
      headers: {
        ...(init.headers as Record<string, string> | undefined),
        'X-Requested-With': 'XMLHttpRequest',
        'X-Client': `imaging-inbox-web/${__APP_VERSION__}`,
      },
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, 0);
  }
  if (response.status === 401) {
    clearSession();
    throw new ApiError(CLIENT_ERROR_CODES.unauthorized, 401);
  }
  const body = (await response.json().catch(() => ({}))) as Partial<ApiErrorBody>;
  if (response.status < 200 || response.status > 202) {
    throw new ApiError(body.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, body);
  }
  return body as T;
}
