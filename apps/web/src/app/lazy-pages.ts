import { lazyPage } from '../lib/lazy-page';

// The inbox frame and its group page load on demand, so the sign-in page stays small; each
// feature's own pages are lazy in that feature's index.ts.
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
  void InboxShell.preload();
  void GroupPage.preload();
}
