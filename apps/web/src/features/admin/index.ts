// The administration feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const UsersAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/UsersAdminPage'),
  (m) => m.UsersAdminPage,
);
export const GroupsAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/GroupsAdminPage'),
  (m) => m.GroupsAdminPage,
);
export const AuditLogPage = /* @__PURE__ */ lazyPage(
  () => import('./components/AuditLogPage'),
  (m) => m.AuditLogPage,
);
export const SsoAdminPage = /* @__PURE__ */ lazyPage(
  () => import('./components/SsoAdminPage'),
  (m) => m.SsoAdminPage,
);
