import { useParams } from 'react-router';
import { Alert, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';
import { useGroupPermission } from '../../inbox/use-group-permission';

/** Request Study (needs link_edit). The form itself arrives with the request-link feature. */
export function RequestStudyPage() {
  const { t } = useTranslation();
  const { groupId } = useParams();
  const access = useGroupPermission(groupId, 'link_edit');
  return (
    <PagePanel title={t('Request Study')}>
      {access.kind === 'not-found' && <Alert severity="error">{t(MESSAGES.requestGroupNotFound)}</Alert>}
      {access.kind === 'forbidden' && <Alert severity="error">{t(MESSAGES.requestNoPermission)}</Alert>}
      {access.kind === 'ok' && (
        <Typography color="text.secondary">
          {t('Study requests for {{group}} are not available yet.', { group: access.group.name })}
        </Typography>
      )}
    </PagePanel>
  );
}
