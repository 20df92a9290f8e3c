import { api, API_BASE } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';
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
    void fetch(`${API_BASE}/study/sync`, {
      method: 'POST',
      keepalive: true,
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Requested-With': 'XMLHttpRequest' },
      body: new URLSearchParams({ sid: getSid() ?? '', uuid, image_count: String(imageCount) }).toString(),
    }).catch(() => undefined),
};
