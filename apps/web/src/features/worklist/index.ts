// The worklist feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const WorklistPage = /* @__PURE__ */ lazyPage(
  () => import('./components/WorklistPage'),
  (m) => m.WorklistPage,
);
