import { Alert, IconButton, Tooltip, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import type { useRevokeRequest } from './use-revoke-request';

/** What the group's Pending Requests page and the exam's tab say when the list failed or is empty. */
export function PendingRequestsNotice({ failed, empty }: { failed: boolean; empty: boolean }) {
  const { t } = useTranslation();
  if (failed) return <Alert severity="error">{t(MESSAGES.unexpectedError)}</Alert>;
  if (empty) return <Typography color="text.secondary">{t(MESSAGES.noPendingRequests)}</Typography>;
  return null;
}

/** The ✕ that revokes one request link, named by whom it asks. */
export function RevokeRequestButton({
  link,
  revoke,
}: {
  link: { uuid: string; email: string };
  revoke: ReturnType<typeof useRevokeRequest>;
}) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('Revoke')}>
      <IconButton
        aria-label={t('Revoke request to {{email}}', { email: link.email })}
        disabled={revoke.pending}
        onClick={() => revoke.revoke(link.uuid)}
      >
        ✕
      </IconButton>
    </Tooltip>
  );
}
