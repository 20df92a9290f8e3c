import type { ReactNode } from 'react';
import { Alert, AlertTitle, Button, Typography } from '@mui/material';
import Block from '@mui/icons-material/Block';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Schedule from '@mui/icons-material/Schedule';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { useNomination } from '../../api/nomination';
import { usePushStudy } from '../../api/study-push';
import { timeAgo } from '../../lib/time-ago';

type NoticeState = 'Queued' | 'Rejected' | 'Completed' | 'Failed';

/** Each state's title, colour and icon: the icon and the words tell the state without the colour. */
const LOOK: Record<
  NoticeState,
  { title: string; severity: 'info' | 'success' | 'error' | undefined; icon: ReactNode }
> = {
  Queued: { title: 'This exam is queued to be sent to PACS', severity: 'info', icon: <Schedule /> },
  Rejected: { title: 'This exam was rejected', severity: undefined, icon: <Block /> },
  Completed: { title: 'This exam was sent to PACS', severity: 'success', icon: <CheckCircle /> },
  Failed: { title: 'Sending this exam to PACS failed', severity: 'error', icon: <ErrorIcon /> },
};

export const isNoticeState = (state: string): state is NoticeState => state in LOOK;

/**
 * What became of a processed nomination (SPEC.md section 2): blue while queued, grey once rejected,
 * green once in PACS, red when the push failed (with Retry), each with its icon and its time ago.
 * An alert: a screen reader reads it when the state changes under the open exam.
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
      icon={look.icon}
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
