import { Suspense, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router';
import { Loading } from '../components/Loading';
import { ResetPasswordPage, RoutedSignInPage, SsoLandingPage } from '../features/auth';
import { LinkUploadPage } from '../features/link';
import { RequestStudyPage } from '../features/request';
import { RetrieveStudyPage } from '../features/retrieve';
import { SendLinkPage } from '../features/send-link';
import { AuditLogPage, GroupsAdminPage, SsoAdminPage, UsersAdminPage } from '../features/admin';
import { DestinationsAdminPage } from '../features/destinations';
import { LabelsAdminPage } from '../features/labels';
import { DeidentificationAdminPage } from '../features/privacy';
import { RoutingRulesPage } from '../features/routing';
import { AccountSettingsPage } from '../features/settings';
import { UploadPage } from '../features/upload';
import { WorklistPage } from '../features/worklist';
import { GroupPage, InboxShell, InboxUnavailablePage, QueryLayout, RequireSession } from './lazy-pages';
import { NotFoundPage } from './NotFoundPage';

const suspended = (node: ReactNode) => <Suspense fallback={<Loading />}>{node}</Suspense>;

/**
 * Routes of SPEC.md section 2. The app renders the pages SPEC.md calls external too: the
 * administration pages (destinations, users, groups, routing rules) and the Advanced UI (/worklist).
 */
export const routes: RouteObject[] = [
  { path: '/', element: <RoutedSignInPage /> },
  // Where a sign-in through a provider lands with its session (features/auth, decision 0066).
  { path: '/sso', element: <SsoLandingPage /> },
  {
    // Every page but sign-in uses the query cache, loaded with the first of them.
    element: suspended(<QueryLayout />),
    children: [
      { path: '/reset-password', element: suspended(<ResetPasswordPage />) },
      { path: '/404', element: suspended(<InboxUnavailablePage />) },
      // A mailed request-study link: reached by people without an account, so outside the session guard.
      { path: '/link/:token', element: suspended(<LinkUploadPage />) },
      // An e-mailed exam: the recipient verifies their address, then views and downloads it.
      { path: '/send/:token', element: suspended(<SendLinkPage />) },
      {
        element: suspended(<RequireSession />),
        children: [
          {
            element: suspended(<InboxShell />),
            children: [
              { path: '/group/list', element: <GroupPage /> },
              { path: '/group/:groupId', element: <GroupPage /> },
              { path: '/group/:groupId/:stateName', element: <GroupPage /> },
              { path: '/inbox/group/list', element: <Navigate to="/group/list" replace /> },
              { path: '/study/upload', element: <UploadPage /> },
              { path: '/study/request/:groupId', element: <RequestStudyPage /> },
              { path: '/study/retrieve/:groupId', element: <RetrieveStudyPage /> },
              { path: '/account-settings', element: <AccountSettingsPage /> },
              // The menu's Advanced UI: the inbox's study search as a dense table.
              { path: '/worklist', element: <WorklistPage /> },
              // The first page of the Administration area (SPEC.md's /organization/*.html pages).
              { path: '/organization/destinations.html', element: <DestinationsAdminPage /> },
              { path: '/organization/users.html', element: <UsersAdminPage /> },
              { path: '/organization/groups.html', element: <GroupsAdminPage /> },
              { path: '/organization/routing-rules.html', element: <RoutingRulesPage /> },
              { path: '/organization/audit.html', element: <AuditLogPage /> },
              { path: '/organization/labels.html', element: <LabelsAdminPage /> },
              { path: '/organization/deidentification.html', element: <DeidentificationAdminPage /> },
              { path: '/organization/sso.html', element: <SsoAdminPage /> },
            ],
          },
        ],
      },
    ],
  },
  { path: '*', element: <NotFoundPage /> },
];

export function createRouter() {
  return createBrowserRouter(routes);
}
