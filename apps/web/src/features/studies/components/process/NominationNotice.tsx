import { Alert, AlertTitle, Button, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { useNomination } from '../../api/nomination';
import { usePushStudy } from '../../api/study-push';
import { timeAgo } from '../../lib/time-ago';

type NoticeState = 'Queued' | 'Rejected' | 'Completed' | 'Failed';

const LOOK: Record<NoticeState, { title: string; severity: 'info' | 'success' | 'error' | undefined }> = {
  Queued: { title: 'This exam is queued to be sent to PACS', severity: 'info' },
  Rejected: { title: 'This exam was rejected', severity: undefined },
  Completed: { title: 'This exam was sent to PACS', severity: 'success' },
  Failed: { title: 'Sending this exam to PACS failed', severity: 'error' },
};

export const isNoticeState = (state: string): state is NoticeState => state in LOOK;

/**
 * What became of a processed nomination (SPEC.md section 2): blue while queued, grey once rejected,
 * green once in PACS, red when the push failed (with Retry), each with its time ago.
 */
export function NominationNotice({ study, state }: { study: Study; state: NoticeState }) {
  const { t } = useTranslation();
  const nomination = useNomination(study.uuid);
  const push = usePushStudy(study.uuid);
  const latest = study.study_push_status[0];
  const look = LOOK[state];
  const rejected = nomination.data?.nomination;
  const canRetry = state === 'Failed' && !!latest?.destination_id && study.permissions.study_push === 1;
  return (
    <Alert
      severity={look.severity ?? 'info'}
      icon={look.severity ? undefined : false}
      data-state={state}
      aria-label={t('Exam state')}
      sx={look.severity ? undefined : { bgcolor: 'action.selected', color: 'text.primary' }}
      action={
        canRetry ? (
          <Button
            color="inherit"
            size="small"
            disabled={push.isPending || push.isSuccess}
            onClick={() => push.mutate(latest.destination_id!)}
          >
            {t('Retry')}
          </Button>
        ) : undefined
      }
    >
      <AlertTitle>{t(look.title)}</AlertTitle>
      {latest && (
        <Typography variant="body2">
          {state === 'Rejected'
            ? timeAgo(latest.updated)
            : t('{{destination}}, {{ago}}', {
                destination: latest.destination_name,
                ago: timeAgo(latest.updated),
              })}
        </Typography>
      )}
      {state === 'Failed' && latest?.reason && <Typography variant="body2">{latest.reason}</Typography>}
      {state === 'Rejected' && rejected?.rejected && (
        <Typography variant="body2" component="div" sx={{ mt: 1 }}>
          <b>{t('Reason')}:</b> {rejected.rejection_reason}
          <br />
          <b>{t('Message')}:</b> {rejected.rejection_message}
        </Typography>
      )}
      {push.isSuccess && <Typography variant="body2">{t('The push was queued again.')}</Typography>}
      {push.isError && <Typography variant="body2">{t('The push could not be queued.')}</Typography>}
    </Alert>
  );
}
