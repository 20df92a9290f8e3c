import type { ViewerTokenAnswer } from '@imaging-inbox/contract';
import { apiPost } from '../../../lib/api-client';

/** A short-lived token that opens one study to the embedded viewer (`study/viewer/token`). */
export const fetchViewerToken = (uuid: string) => apiPost<ViewerTokenAnswer>('study/viewer/token', { uuid });
