import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { Loading } from '../../components/Loading';
import { SearchProvider } from '../../features/search';
import { DashboardLayout } from './DashboardLayout';
import { InboxProvider } from '../../session/InboxProvider';

/** Everything behind sign-in: account and groups loaded, the search state, the dashboard frame. */
export function InboxShell() {
  return (
    <InboxProvider>
      <SearchProvider>
        <DashboardLayout>
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </DashboardLayout>
      </SearchProvider>
    </InboxProvider>
  );
}
