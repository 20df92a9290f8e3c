import { lazyPage } from '../lib/lazy-page';

// The session guard, the inbox frame and its group page load on demand, so the sign-in page
// stays small; each feature's own pages are lazy in that feature's index.ts (the router itself is
// lazy in App.tsx).
export const QueryLayout = lazyPage(
  () => import('./QueryLayout'),
  (m) => m.QueryLayout,
);
export const RequireSession = lazyPage(
  () => import('./RequireSession'),
  (m) => m.RequireSession,
);
export const InboxUnavailablePage = lazyPage(
  () => import('./InboxUnavailablePage'),
  (m) => m.InboxUnavailablePage,
);
export const InboxShell = lazyPage(
  () => import('./shell/InboxShell'),
  (m) => m.InboxShell,
);
export const GroupPage = lazyPage(
  () => import('./shell/GroupPage'),
  (m) => m.GroupPage,
);

/** Fetches the inbox chunks while the user is still on the sign-in page. */
export function preloadInbox(): void {
  void QueryLayout.preload();
  void RequireSession.preload();
  void InboxShell.preload();
  void GroupPage.preload();
}
