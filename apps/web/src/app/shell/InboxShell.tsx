import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { SnackbarProvider } from 'notistack';
import { GlobalStyles } from '@mui/material';
import { SNACKBAR_MAX, SNACKBAR_MS } from '@imaging-inbox/contract';
import { Loading } from '../../components/Loading';
import { SearchProvider } from '../../features/search';
import { DashboardLayout } from './DashboardLayout';
import { InboxProvider } from '../../session/InboxProvider';
import { ANNOUNCED_SNACKBARS, snackbarLiveRegion } from './AnnouncedSnackbar';
import { SNACKBARS_BELOW_SEARCH, SNACKBARS_BELOW_SEARCH_STYLES } from './snackbar-offset';

/**
 * Everything behind sign-in: account and groups loaded, the search state, the dashboard frame.
 * Snackbars (at most 3 visible, 4000 ms, top centre: SPEC.md section 9, under the search bar) are
 * only used here, so the sign-in and public pages do not load them.
 */
export function InboxShell() {
  return (
    <SnackbarProvider
      maxSnack={SNACKBAR_MAX}
      autoHideDuration={SNACKBAR_MS}
      anchorOrigin={{ vertical: 'top', horizontal: 'center' }}
      // Drawn in a live region that stays in the page, so screen readers read each one.
      domRoot={snackbarLiveRegion()}
      Components={ANNOUNCED_SNACKBARS}
      classes={{ containerAnchorOriginTopCenter: SNACKBARS_BELOW_SEARCH }}
    >
      <GlobalStyles styles={SNACKBARS_BELOW_SEARCH_STYLES} />
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
