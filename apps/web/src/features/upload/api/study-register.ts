import type { StudyAddAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../../lib/api-client';
import type { StudyRegistrar } from '../lib/study-registration';

/** study/add and study/sync as the signed-in wizard calls them (SPEC.md section 7, "Storage"). */
export const signedInStudyRegistrar: StudyRegistrar = {
  add: async (namespaceId, studyUid) =>
    (await apiPost<StudyAddAnswer>('study/add', { storage_namespace: namespaceId, study_uid: studyUid }))
      .uuid,
  sync: async (uuid, imageCount) => {
    await apiPost('study/sync', { uuid, image_count: imageCount });
  },
};
