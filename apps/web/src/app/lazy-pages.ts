import { lazyPage } from '../lib/lazy-page';

// Everything behind sign-in loads on demand, so the sign-in page stays small.
export const ResetPasswordPage = lazyPage(
  () => import('../features/auth/components/ResetPasswordPage'),
  (m) => m.ResetPasswordPage,
);
export const InboxShell = lazyPage(
  () => import('../features/inbox/components/InboxShell'),
  (m) => m.InboxShell,
);
export const GroupPage = lazyPage(
  () => import('../features/inbox/components/GroupPage'),
  (m) => m.GroupPage,
);
export const UploadPage = lazyPage(
  () => import('../features/upload/components/UploadPage'),
  (m) => m.UploadPage,
);
export const RequestStudyPage = lazyPage(
  () => import('../features/request/components/RequestStudyPage'),
  (m) => m.RequestStudyPage,
);
export const RetrieveStudyPage = lazyPage(
  () => import('../features/retrieve/components/RetrieveStudyPage'),
  (m) => m.RetrieveStudyPage,
);
export const DestinationsAdminPage = lazyPage(
  () => import('../features/destinations/components/DestinationsAdminPage'),
  (m) => m.DestinationsAdminPage,
);
export const LinkUploadPage = lazyPage(
  () => import('../features/link/components/LinkUploadPage'),
  (m) => m.LinkUploadPage,
);
export const SendLinkPage = lazyPage(
  () => import('../features/send-link/components/SendLinkPage'),
  (m) => m.SendLinkPage,
);
export const AccountSettingsPage = lazyPage(
  () => import('../features/settings/components/AccountSettingsPage'),
  (m) => m.AccountSettingsPage,
);

/** Fetches the inbox chunks while the user is still on the sign-in page. */
export function preloadInbox(): void {
  void InboxShell.preload();
  void GroupPage.preload();
}
