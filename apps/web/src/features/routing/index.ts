// The routing-rules feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const RoutingRulesPage = /* @__PURE__ */ lazyPage(
  () => import('./components/RoutingRulesPage'),
  (m) => m.RoutingRulesPage,
);
