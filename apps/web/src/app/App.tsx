import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { preloadInbox } from './lazy-pages';
import { Providers } from './Providers';
import { createRouter } from './router';

export function App() {
  const [router] = useState(() => {
    const created = createRouter();
    // A 401 has already cleared session storage; return to sign-in without reloading the page.
    setUnauthorizedHandler(() => void created.navigate('/', { replace: true }));
    return created;
  });
  useEffect(() => {
    // The sign-in page loads only what sign-in needs. The inbox code is fetched once the user
    // starts signing in (a key or a click), so it arrives while the password is typed and checked.
    const events = ['keydown', 'pointerdown'] as const;
    const start = () => {
      for (const type of events) window.removeEventListener(type, start, true);
      preloadInbox();
    };
    for (const type of events) window.addEventListener(type, start, { capture: true, passive: true });
    return () => {
      for (const type of events) window.removeEventListener(type, start, true);
    };
  }, []);
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
