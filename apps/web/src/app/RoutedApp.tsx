import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { setUnauthorizedHandler } from '../lib/api-client';
import { Providers } from './Providers';
import { createRouter } from './router';

/**
 * Every page through the router, inside MUI's theme; created from the address the window shows when
 * it mounts. The first visit of sign-in paints before this chunk, without MUI (decision 0075).
 */
export function RoutedApp() {
  const [router] = useState(() => {
    const created = createRouter();
    // A 401 has already cleared session storage; return to sign-in without reloading the page.
    setUnauthorizedHandler(() => void created.navigate('/', { replace: true }));
    return created;
  });
  return (
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  );
}
