// The settings feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export { DatePreferencesProvider } from './components/DatePreferencesProvider';

export const AccountSettingsPage = /* @__PURE__ */ lazyPage(
  () => import('./components/AccountSettingsPage'),
  (m) => m.AccountSettingsPage,
);
