import { QueryClient } from '@tanstack/react-query';
import { ApiError, CLIENT_ERROR_CODES } from '../lib/api-error';
import { onSignIn } from '../lib/session-events';

/** Only network failures are retried; a 4xx answer will not change by asking again. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) =>
          count < 2 && error instanceof ApiError && error.code === CLIENT_ERROR_CODES.network,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
    },
  });
}

let appClient: QueryClient | null = null;

/** The page's one query cache, made on first use and emptied whenever a user signs in. */
export function appQueryClient(): QueryClient {
  if (appClient === null) {
    const client = createQueryClient();
    onSignIn(() => client.clear());
    appClient = client;
  }
  return appClient;
}
