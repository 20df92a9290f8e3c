import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { createRouter } from './router';

/** Every page through the router; created from the address the window shows when it mounts. */
export function RoutedApp() {
  const [router] = useState(() => {
    const created = createRouter();
    // A 401 has already cleared session storage; return to sign-in without reloading the page.
    setUnauthorizedHandler(() => void created.navigate('/', { replace: true }));
    return created;
  });
  return <RouterProvider router={router} />;
}
