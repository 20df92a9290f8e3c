import { Navigate, Outlet } from 'react-router';
import { Loading } from '../components/Loading';
import { useSessionUser } from '../features/auth';
import { SessionContext } from '../session/session-context';
import { DatePreferencesProvider } from '../features/settings';
import { useAccountLabels } from '../features/labels';
import { getSid } from '../lib/storage';
import { useSessionTtlPoll } from './use-session-ttl-poll';

/** Protected pages: a stored sid validated by session/user, with Loading meanwhile; else back to /. */
export function RequireSession() {
  const sid = getSid();
  const user = useSessionUser(sid);
  if (sid === null || user.isError) return <Navigate to="/" replace />;
  if (user.isPending) return <Loading />;
  return (
    <SessionContext.Provider value={user.data}>
      <TtlPoll />
      <AccountLabels />
      <DatePreferencesProvider>
        <Outlet />
      </DatePreferencesProvider>
    </SessionContext.Provider>
  );
}

function TtlPoll() {
  useSessionTtlPoll();
  return null;
}

/** The account's own wording of labels, for every page of the session. */
function AccountLabels() {
  useAccountLabels();
  return null;
}
