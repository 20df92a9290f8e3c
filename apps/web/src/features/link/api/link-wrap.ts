import type { PatientFormValues, WrapUploadAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { uploadRequest } from '../../upload/api/upload-request';

/**
 * POST link/public/wrap: the documents of one submission with the patient and exam form, in one
 * call, so the server wraps them into one new study of the link's group (or stores none of them).
 */
export function linkWrap(
  grant: string,
  form: PatientFormValues,
  files: readonly File[],
  signal?: AbortSignal,
): Promise<WrapUploadAnswer> {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  for (const file of files) body.append('file', file, file.name);
  return uploadRequest<WrapUploadAnswer>(`${API_BASE}/link/public/wrap`, {
    body,
    signal,
    headers: { 'X-Link-Grant': grant },
  });
}
