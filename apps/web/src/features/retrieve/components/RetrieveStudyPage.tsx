import { useParams } from 'react-router';
import { Alert, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';
import { useGroupPermission } from '../../../session/use-group-permission';

/** Retrieve Study (needs destination_search). The search arrives with the retrieve feature. */
export function RetrieveStudyPage() {
  const { t } = useTranslation();
  const { groupId } = useParams();
  const access = useGroupPermission(groupId, 'destination_search');
  return (
    <PagePanel title={t('Retrieve Study')}>
      {access.kind === 'not-found' && <Alert severity="error">{t(MESSAGES.requestGroupNotFound)}</Alert>}
      {access.kind === 'forbidden' && <Alert severity="error">{t(MESSAGES.retrieveNoPermission)}</Alert>}
      {access.kind === 'ok' && (
        <Typography color="text.secondary">
          {t('Retrieving studies into {{group}} is not available yet.', { group: access.group.name })}
        </Typography>
      )}
    </PagePanel>
  );
}
