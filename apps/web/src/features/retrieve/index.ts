// The retrieve feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const RetrieveStudyPage = /* @__PURE__ */ lazyPage(
  () => import('./components/RetrieveStudyPage'),
  (m) => m.RetrieveStudyPage,
);
