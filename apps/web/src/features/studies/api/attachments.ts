import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AttachmentUploadAnswer, ErrorType, Study } from '@imaging-inbox/contract';
import { ATTACHMENT_PAGE_ROWS } from '@imaging-inbox/contract';
import { api, API_BASE } from '../../../lib/api-client';
import { ApiError, CLIENT_ERROR_CODES } from '../../../lib/api-error';
import { getSid } from '../../../lib/storage';
import { refreshStudies } from './study-cache';

/** The storage address of a study's attachments, with phi_namespace and the sid in the query. */
function storagePath(study: Study, suffix = '', query: Record<string, string> = {}): string {
  const params = new URLSearchParams({ phi_namespace: study.phi_namespace, ...query });
  const sid = getSid();
  if (sid) params.set('sid', sid);
  const path = `storage/study/${encodeURIComponent(study.storage_namespace)}/${encodeURIComponent(study.study_uid)}/attachment${suffix}`;
  return `${API_BASE}/${path}?${params.toString()}`;
}

/** Download (or, with `inline`, view) one version of an attachment. */
export function attachmentUrl(
  study: Study,
  id: string,
  version: number,
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  const suffix = `/${encodeURIComponent(id)}/version/${version}/${encodeURIComponent(filename)}`;
  return storagePath(study, suffix, disposition === 'inline' ? { disposition } : {});
}

export const attachmentListQuery = (uuid: string, page: number) =>
  queryOptions({
    queryKey: ['attachments', uuid, page],
    queryFn: ({ signal }) =>
      api.call(
        'study/attachment/list',
        { uuid, 'page.number': page, 'page.rows': ATTACHMENT_PAGE_ROWS },
        { signal },
      ),
    placeholderData: keepPreviousData,
  });

/** Multipart upload of one file; a refusal carries the server's error_type like other calls. */
export async function uploadAttachment(study: Study, file: File): Promise<AttachmentUploadAnswer> {
  const form = new FormData();
  form.append('file', file, file.name);
  let response: Response;
  try {
    response = await fetch(storagePath(study), {
      method: 'POST',
      body: form,
      credentials: 'same-origin',
      headers: { 'X-Requested-With': 'XMLHttpRequest' },
    });
  } catch {
    throw new ApiError(CLIENT_ERROR_CODES.network, 0);
  }
  const body = (await response.json().catch(() => null)) as
    (AttachmentUploadAnswer & { error_type?: ErrorType }) | null;
  if (!response.ok || !body) {
    throw new ApiError(body?.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, body);
  }
  return body;
}

export async function deleteAttachment(study: Study, id: string): Promise<void> {
  const response = await fetch(storagePath(study, `/${encodeURIComponent(id)}`), {
    method: 'DELETE',
    credentials: 'same-origin',
    headers: { 'X-Requested-With': 'XMLHttpRequest' },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as { error_type?: string } | null;
    throw new ApiError(body?.error_type ?? CLIENT_ERROR_CODES.unexpected, response.status, body);
  }
}

/** Upload and delete both refresh the list and the study's attachment_count. */
function useAttachmentChange<T>(fn: (vars: T) => Promise<unknown>, study: Study) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['attachments', study.uuid] });
      return refreshStudies(queryClient);
    },
  });
}

export const useUploadAttachment = (study: Study) =>
  useAttachmentChange((file: File) => uploadAttachment(study, file), study);

export const useDeleteAttachment = (study: Study) =>
  useAttachmentChange((id: string) => deleteAttachment(study, id), study);
