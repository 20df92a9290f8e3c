import type { ReactElement } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { SnackbarProvider } from 'notistack';

export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

/** Renders routes in a memory router with a fresh query client. */
export function renderRoutes(routes: RouteObject[], initialPath: string) {
  const router = createMemoryRouter(routes, { initialEntries: [initialPath] });
  const queryClient = testQueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <SnackbarProvider>
        <RouterProvider router={router} />
      </SnackbarProvider>
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}

export function renderWithRouter(element: ReactElement, path = '/') {
  return renderRoutes(
    [
      { path, element },
      { path: '*', element: <div>elsewhere</div> },
    ],
    path,
  );
}

/** A fetch stub answering api/v3 paths from a table; unknown paths answer 404. */
export function apiStub(table: Record<string, (body: URLSearchParams, url: URL) => [number, unknown]>) {
  return (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : input.toString(), 'http://localhost');
    const path = url.pathname.replace('/api/v3/', '');
    const body = new URLSearchParams(typeof init?.body === 'string' ? init.body : '');
    const handler = table[path];
    const [status, json] = handler ? handler(body, url) : [404, {}];
    return Promise.resolve(
      new Response(JSON.stringify(json), { status, headers: { 'Content-Type': 'application/json' } }),
    );
  };
}
