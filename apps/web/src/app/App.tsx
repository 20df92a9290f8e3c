import { Suspense, useEffect, useMemo, useState } from 'react';
import { Waiting } from '../components/plain/kit';
import { SignInNavigationProvider, SignInPage } from '../features/auth';
import { setUnauthorizedHandler } from '../lib/api-client';
import { useTranslation } from '../lib/i18n';
import { lazyPage } from '../lib/lazy-page';
import { getSid } from '../lib/storage';
import { preloadInbox } from './lazy-pages';

/**
 * The router with every route, inside MUI's theme: react-router, MUI and emotion load after
 * sign-in's first paint (decisions 0069 and 0075).
 */
const RoutedApp = lazyPage(
  () => import('./RoutedApp'),
  (m) => m.RoutedApp,
);

/** A first visit of sign-in: the root address and no stored session (which would go to the inbox). */
const opensOnSignIn = () => window.location.pathname === '/' && getSid() === null;

export function App() {
  const { t } = useTranslation();
  // The sign-in page paints without the router and without MUI (together most of its code); every
  // other address, and sign-in's own exits, go through the router, loaded on demand (decision 0069).
  // Until it has loaded, the wait is drawn with the plain controls the sign-in page uses.
  const [routed, setRouted] = useState(() => {
    const signIn = opensOnSignIn();
    // Until the router takes over, a 401 (a session user check that failed) leaves us where we are.
    if (signIn) setUnauthorizedHandler(() => undefined);
    return !signIn;
  });
  const signInNavigation = useMemo(
    () => ({
      leave: (to: string) => {
        // The router starts from the address the window shows, as a <Navigate replace> would leave it.
        window.history.replaceState(null, '', to);
        setRouted(true);
      },
    }),
    [],
  );
  useEffect(() => {
    // The sign-in page loads only what sign-in needs. The inbox code is fetched once the user
    // starts signing in (a key or a click), so it arrives while the password is typed and checked.
    const events = ['keydown', 'pointerdown'] as const;
    const start = () => {
      for (const type of events) window.removeEventListener(type, start, true);
      void RoutedApp.preload();
      preloadInbox();
    };
    for (const type of events) window.addEventListener(type, start, { capture: true, passive: true });
    return () => {
      for (const type of events) window.removeEventListener(type, start, true);
    };
  }, []);
  return routed ? (
    <Suspense fallback={<Waiting label={t('Loading')} />}>
      <RoutedApp />
    </Suspense>
  ) : (
    <SignInNavigationProvider value={signInNavigation}>
      <SignInPage />
    </SignInNavigationProvider>
  );
}
