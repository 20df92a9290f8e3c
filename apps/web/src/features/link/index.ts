// The request-link feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export { linkErrorCode } from './api/link-public';

export const LinkUploadPage = /* @__PURE__ */ lazyPage(
  () => import('./components/LinkUploadPage'),
  (m) => m.LinkUploadPage,
);
