import { api } from '../../../lib/api-client';

/** A short-lived token that opens one study to the embedded viewer (`study/viewer/token`). */
export const fetchViewerToken = (uuid: string) => api.call('study/viewer/token', { uuid });
