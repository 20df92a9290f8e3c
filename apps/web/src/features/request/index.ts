// The request feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export { PendingRequests } from './components/PendingRequests';
export { PendingRequestsTab } from './components/PendingRequestsTab';

export const RequestStudyPage = /* @__PURE__ */ lazyPage(
  () => import('./components/RequestStudyPage'),
  (m) => m.RequestStudyPage,
);
