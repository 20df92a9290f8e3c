import { Navigate } from 'react-router';
import { Typography } from '@mui/material';
import { useTranslation } from '../../lib/i18n';
import { PagePanel } from '../../components/PagePanel';
import { PendingRequests } from '../../features/request';
import { StudyWorkspace } from '../../features/studies';
import { PENDING_REQUESTS } from '../../session/groups';
import { stateFilters } from '../../session/state-filters';
import { useGroupRoute } from '../../session/use-group-route';

/** /group/list, /group/{id} (redirects to a state) and /group/{id}/{state}. */
export function GroupPage() {
  const { t } = useTranslation();
  const route = useGroupRoute();
  if (route === null || route.kind === 'empty') {
    return (
      <PagePanel title={t('Inbox')}>
        <Typography color="text.secondary">{t('You are not a member of any group yet.')}</Typography>
      </PagePanel>
    );
  }
  if (route.kind === 'redirect') return <Navigate to={route.to} replace />;
  if (route.state === PENDING_REQUESTS && route.group.type === 'CLOUD') {
    return <PendingRequests key={route.group.uuid} group={route.group} />;
  }
  const filter = stateFilters(route.group, route.state);
  if (filter === null) {
    return (
      <PagePanel title={t(route.state)}>
        <Typography color="text.secondary">{t('No pending requests.')}</Typography>
      </PagePanel>
    );
  }
  return (
    <StudyWorkspace
      key={`${route.group.uuid}/${route.state}`}
      group={route.group}
      state={route.state}
      stateFilter={filter}
    />
  );
}
