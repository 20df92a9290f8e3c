import { api } from '../../../lib/api-client';
import type { StudyRegistrar } from '../lib/study-registration';

/** study/add and study/sync as the signed-in wizard calls them (SPEC.md section 7, "Storage"). */
export const signedInStudyRegistrar: StudyRegistrar = {
  add: async (namespaceId, studyUid) =>
    (await api.call('study/add', { storage_namespace: namespaceId, study_uid: studyUid })).uuid,
  sync: async (uuid, imageCount) => {
    await api.call('study/sync', { uuid, image_count: imageCount });
  },
  // keepalive: the request is sent even though the page is being unloaded.
  syncOnLeave: (uuid, imageCount) =>
    void api
      .call('study/sync', { uuid, image_count: imageCount }, { keepalive: true })
      .catch(() => undefined),
};
