// The label-overrides feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export { useAccountLabels } from './lib/use-account-labels';

export const LabelsAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/LabelsAdminPage'),
  (m) => m.LabelsAdminPage,
);
