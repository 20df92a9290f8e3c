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
    // Off the critical path: once the first page is up, fetch the inbox code in the background.
    const timer = window.setTimeout(preloadInbox, 300);
    return () => window.clearTimeout(timer);
  }, []);
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
