import type { PatientFormValues, WrapUploadAnswer } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';
import { documentName, uploadBody } from '../../upload';

/**
 * POST link/public/wrap: the documents of one submission with the patient and exam form, in one
 * call, so the server wraps them into one new study of the link's group (or stores none of them).
 * Documents found inside a ZIP are in memory only while this call is built and sent.
 */
export async function linkWrap(
  grant: string,
  form: PatientFormValues,
  files: readonly File[],
  signal?: AbortSignal,
): Promise<WrapUploadAnswer> {
  const body = new FormData();
  for (const [key, value] of Object.entries(form)) body.set(key, value);
  // A document from inside a ZIP is inflated now (one at a time), and sent under its own name.
  for (const file of files) body.append('file', await uploadBody(file), documentName(file));
  return api.upload('link/public/wrap', { body, signal, linkGrant: grant });
}
