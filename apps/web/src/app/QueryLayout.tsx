import { useContext } from 'react';
import { Outlet } from 'react-router';
import { QueryClientContext, QueryClientProvider } from '@tanstack/react-query';
import { appQueryClient } from './query-client';

/**
 * Every page but sign-in talks to the api through TanStack Query; this layout brings the cache,
 * loaded on demand so the sign-in page carries no query library. A cache given from above (tests)
 * is used as it is.
 */
export function QueryLayout() {
  const outer = useContext(QueryClientContext);
  if (outer) return <Outlet />;
  return (
    <QueryClientProvider client={appQueryClient()}>
      <Outlet />
    </QueryClientProvider>
  );
}
