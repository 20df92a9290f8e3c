import type { PatientFormValues, WrapUploadAnswer } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';
import { uploadRequest } from './upload-request';

/**
 * POST storage/namespace/{id}/wrap: one non-DICOM file with the patient and exam form, into the
 * study `studyUid` when given (a later file of the same upload), else into a new study.
 */
export function wrapFile(
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
  return uploadRequest<WrapUploadAnswer>(
    `${API_BASE}/storage/namespace/${encodeURIComponent(namespaceId)}/wrap?${query}`,
    { body, signal },
  );
}
