// The send-link feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const SendLinkPage = /* @__PURE__ */ lazyPage(
  () => import('./components/SendLinkPage'),
  (m) => m.SendLinkPage,
);
