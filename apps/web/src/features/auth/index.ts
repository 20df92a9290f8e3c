// The auth feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

// The sign-in page twice: inside the router (`/`), and before the router has loaded (app/App.tsx).
export { SignInPage } from './components/SignInPage';
export { RoutedSignInPage } from './components/RoutedSignInPage';
export { SignInNavigationProvider, type SignInNavigation } from './sign-in-navigation';
export { useLogout } from './api/logout';
export { useSessionUser } from './api/session-user';
export { getSessionTtl } from './api/session-ttl';

export { SsoLandingPage } from './components/SsoLandingPage';

export const ResetPasswordPage = /* @__PURE__ */ lazyPage(
  () => import('./components/ResetPasswordPage'),
  (m) => m.ResetPasswordPage,
);
