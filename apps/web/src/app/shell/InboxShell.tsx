import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { SnackbarProvider } from 'notistack';
import { SNACKBAR_MAX, SNACKBAR_MS } from '@imaging-inbox/contract';
import { Loading } from '../../components/Loading';
import { SearchProvider } from '../../features/search';
import { DashboardLayout } from './DashboardLayout';
import { InboxProvider } from '../../session/InboxProvider';

/**
 * Everything behind sign-in: account and groups loaded, the search state, the dashboard frame.
 * Snackbars (at most 3 visible, 4000 ms, top centre: SPEC.md section 9) are only used here, so the
 * sign-in and public pages do not load them.
 */
export function InboxShell() {
  return (
    <SnackbarProvider
      maxSnack={SNACKBAR_MAX}
      autoHideDuration={SNACKBAR_MS}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
    >
      <InboxProvider>
        <SearchProvider>
          <DashboardLayout>
            <Suspense fallback={<Loading />}>
              <Outlet />
            </Suspense>
          </DashboardLayout>
        </SearchProvider>
      </InboxProvider>
    </SnackbarProvider>
  );
}
