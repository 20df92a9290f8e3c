import type { PatientFormValues, WrapUploadAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { ApiError, CLIENT_ERROR_CODES } from '../../../lib/api-error';
import { clearSession, getSid } from '../../../lib/storage';

/**
 * POST storage/namespace/{id}/wrap: one non-DICOM file with the patient and exam form, into the
 * study `studyUid` when given (a later file of the same upload), else into a new study.
 */
export async function wrapFile(
  namespaceId: string,
  form: PatientFormValues,
  file: File,
  studyUid: string | null,
  signal?: AbortSignal,
): Promise<WrapUploadAnswer> {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  if (studyUid) body.set('study_uid', studyUid);
  body.append('file', file, file.name);
  const query = new URLSearchParams({ sid: getSid() ?? '' });
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/storage/namespace/${encodeURIComponent(namespaceId)}/wrap?${query}`, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest', 'X-Client': `imaging-inbox-web/${__APP_VERSION__}` },
      body,
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, 0);
  }
  if (response.status === 401) {
    clearSession();
    throw new ApiError(CLIENT_ERROR_CODES.unauthorized, 401);
  }
  const answer = (await response.json().catch(() => ({}))) as { error_type?: string };
  if (response.status !== 202 && response.status !== 200) {
    throw new ApiError(answer.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, answer);
  }
  return answer as WrapUploadAnswer;
}
