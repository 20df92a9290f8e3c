import { useMemo, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { Loading } from '../components/Loading';
import { UnexpectedErrorAlert } from '../components/UnexpectedErrorAlert';
import { errorCode } from '../lib/api-error';
import { useSession } from './session-context';
import { accountQuery } from './api/get-account';
import { accountListQuery } from './api/list-accounts';
import { groupListQuery } from './api/list-groups';
import { sessionPermissionsQuery } from './api/session-permissions';
import { InboxContext, type InboxContextValue } from './inbox-context';
import { toInboxGroups } from './groups';

/**
 * Loads what every inbox screen needs: the account with the inbox view, its settings, the user's
 * groups and account permissions. The inbox is closed (/404) unless enable_inbox_view is '1'.
 */
export function InboxProvider({ children }: { children: ReactNode }) {
  const user = useSession();
  const accounts = useQuery(accountListQuery());
  const chosen =
    accounts.data?.accounts.find((a) => a.uuid === user.account_id) ?? accounts.data?.accounts[0];
  const account = useQuery(accountQuery(chosen?.uuid));
  const groups = useQuery(groupListQuery(chosen?.uuid));
  const permissions = useQuery(sessionPermissionsQuery(chosen?.namespace_id));

  const inboxGroups = useMemo(() => toInboxGroups(groups.data?.groups ?? []), [groups.data]);
  const ready = accounts.isSuccess && account.data?.uuid === chosen?.uuid;
  const value = useMemo<InboxContextValue | null>(
    () =>
      ready && account.data && permissions.data
        ? { user, account: account.data, permissions: permissions.data, groups: inboxGroups }
        : null,
    [ready, user, account.data, permissions.data, inboxGroups],
  );

  if (accounts.isError) {
    return errorCode(accounts.error) === 'NO_SUITABLE_ACCOUNT' ? (
      <Navigate to="/404" replace state={{ reason: 'NO_SUITABLE_ACCOUNT' }} />
    ) : (
      <UnexpectedErrorAlert />
    );
  }
  if (accounts.isSuccess && !chosen) return <Navigate to="/404" replace />;
  if (account.data && account.data.settings.enable_inbox_view !== '1') return <Navigate to="/404" replace />;
  if (account.isError || groups.isError || permissions.isError) return <UnexpectedErrorAlert />;
  if (!value || groups.isPending) return <Loading />;
  return <InboxContext.Provider value={value}>{children}</InboxContext.Provider>;
}
