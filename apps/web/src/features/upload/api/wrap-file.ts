import type { PatientFormValues, WrapUploadAnswer } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';
import { documentName } from '../lib/document-files';
import { uploadBody } from '../lib/media-file';

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
  // A document from inside a ZIP is inflated now, and sent under its own name (not its path).
  body.append('file', await uploadBody(file), documentName(file));
  return api.upload('storage/namespace/:namespace_id/wrap', {
    route: { namespace_id: namespaceId },
    body,
    signal,
  });
}
