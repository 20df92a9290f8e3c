// The destinations feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const DestinationsAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/DestinationsAdminPage'),
  (m) => m.DestinationsAdminPage,
);
export { useDestinations } from './api/destinations';
