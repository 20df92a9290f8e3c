import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { AttachmentUploadAnswer, Study } from '@imaging-inbox/contract';
import { ATTACHMENT_PAGE_ROWS } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';
import { refreshStudies } from './study-cache';

/** The study's place in storage, the `:name` segments of every attachment path. */
const storageOf = (study: Study) => ({
  storage_namespace: study.storage_namespace,
  study_uid: study.study_uid,
});

/**
 * Download (or, with `inline`, view) one version of an attachment: a link the browser opens
 * itself, so its sid rides in the query.
 */
export function attachmentUrl(
  study: Study,
  id: string,
  version: number,
  filename: string,
  disposition: 'attachment' | 'inline' = 'attachment',
): string {
  return api.url('storage/study/:storage_namespace/:study_uid/attachment/:id/version/:version/:filename?', {
    route: { ...storageOf(study), id, version: String(version), filename },
    params: { phi_namespace: study.phi_namespace, ...(disposition === 'inline' ? { disposition } : {}) },
  });
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
export function uploadAttachment(study: Study, file: File): Promise<AttachmentUploadAnswer> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.upload('storage/study/:storage_namespace/:study_uid/attachment', {
    route: storageOf(study),
    params: { phi_namespace: study.phi_namespace },
    body: form,
  });
}

export async function deleteAttachment(study: Study, id: string): Promise<void> {
  await api.delete('storage/study/:storage_namespace/:study_uid/attachment/:id', {
    route: { ...storageOf(study), id },
    params: { phi_namespace: study.phi_namespace },
  });
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
