import { useNavigate, useParams } from 'react-router';
import { Alert, Typography } from '@mui/material';
import { useSnackbar } from 'notistack';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { PagePanel } from '../../../components/PagePanel';
import { useGroupPermission } from '../../../session/use-group-permission';
import { useInbox } from '../../../session/inbox-context';
import { PENDING_REQUESTS } from '../../../session/groups';
import { useAddLink } from '../api/links';
import { linkAddParams, type RequestStudyValues } from '../lib/request-schema';
import { RequestStudyForm } from './RequestStudyForm';

/** Request Study (needs link_edit): mails an upload link, then shows the group's Pending Requests. */
export function RequestStudyPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { enqueueSnackbar } = useSnackbar();
  const { groupId } = useParams();
  const access = useGroupPermission(groupId, 'link_edit');
  const add = useAddLink();
  const { account } = useInbox();

  const submit = (values: RequestStudyValues) => {
    if (access.kind !== 'ok') return;
    add.mutate(linkAddParams(access.group.namespaceId, values), {
      onSuccess: () => {
        enqueueSnackbar(t(MESSAGES.requestSent), { variant: 'success' });
        void navigate(`/group/${access.group.uuid}/${encodeURIComponent(PENDING_REQUESTS)}`);
      },
      onError: () => enqueueSnackbar(t(MESSAGES.requestFailed), { variant: 'error' }),
    });
  };

  return (
    <PagePanel title={t('Request Study')}>
      {access.kind === 'not-found' && <Alert severity="error">{t(MESSAGES.requestGroupNotFound)}</Alert>}
      {access.kind === 'forbidden' && <Alert severity="error">{t(MESSAGES.requestNoPermission)}</Alert>}
      {access.kind === 'ok' && (
        <Typography color="text.secondary" sx={{ mb: 2 }}>
          {t('Ask someone outside to upload exams to {{group}}.', { group: access.group.name })}
        </Typography>
      )}
      <RequestStudyForm
        disabled={access.kind !== 'ok'}
        loading={add.isPending}
        onSubmit={submit}
        accountId={account.uuid}
      />
    </PagePanel>
  );
}
