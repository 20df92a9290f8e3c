import { Alert, AlertTitle, Box, Button, Stack, Typography } from '@mui/material';
import type { Nomination, NominationStatus } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { timeAgo } from '../../lib/time-ago';

const LOOK: Record<NominationStatus, { title: string; severity: 'info' | 'success' | 'warning' | 'error' }> =
  {
    IS_NOMINATED: { title: 'Nominated to {{gatekeeper}}', severity: 'info' },
    PROCESSING: { title: '{{gatekeeper}} is processing this exam', severity: 'info' },
    EVALUATING: { title: '{{gatekeeper}} is sending this exam to PACS', severity: 'info' },
    NOMINATION_SUCCESS: { title: 'Sent to PACS by {{gatekeeper}}', severity: 'success' },
    REJECTED: { title: 'Rejected by {{gatekeeper}}', severity: 'warning' },
    NOT_NOMINATED: { title: 'Nomination to {{gatekeeper}} cancelled', severity: 'info' },
  };

interface Props {
  nomination: Nomination;
  cancelling: boolean;
  onCancel: () => void;
  onDetails: () => void;
}

/** The nominator's status panel (SPEC.md section 4): where the nomination stands, and why if rejected. */
export function NominationStatusPanel({ nomination, cancelling, onCancel, onDetails }: Props) {
  const { t } = useTranslation();
  const look = LOOK[nomination.status];
  return (
    <Alert
      severity={look.severity}
      data-status={nomination.status}
      aria-label={t('Nomination status')}
      sx={nomination.status === 'REJECTED' ? { bgcolor: 'action.hover', color: 'text.primary' } : undefined}
    >
      <AlertTitle>{t(look.title, { gatekeeper: nomination.gatekeeper_name })}</AlertTitle>
      <Typography variant="body2">
        {t('Nominated {{ago}} from {{source}}', {
          ago: timeAgo(nomination.submitted_at),
          source: nomination.source,
        })}
      </Typography>
      {nomination.status === 'IS_NOMINATED' && (
        <Typography variant="body2">{t('Waiting for the gatekeeper to process it.')}</Typography>
      )}
      {nomination.status === 'REJECTED' && (
        <Box component="dl" sx={{ m: 0, mt: 1, '& dt': { fontWeight: 600 }, '& dd': { m: 0, mb: 0.5 } }}>
          <dt>{t('Reason')}</dt>
          <dd>{nomination.rejection_reason}</dd>
          <dt>{t('Message')}</dt>
          <dd style={{ whiteSpace: 'pre-wrap' }}>{nomination.rejection_message}</dd>
        </Box>
      )}
      <Stack direction="row" spacing={1} sx={{ mt: 1 }}>
        <Button size="small" color="inherit" variant="outlined" onClick={onDetails}>
          {t('View details')}
        </Button>
        {nomination.status === 'IS_NOMINATED' && (
          <Button size="small" color="inherit" variant="outlined" disabled={cancelling} onClick={onCancel}>
            {t('Cancel nomination')}
          </Button>
        )}
      </Stack>
    </Alert>
  );
}
