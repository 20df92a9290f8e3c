import { useState } from 'react';
import {
  Alert,
  Button,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { PushStatus, Study, StudyPushAttempt } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorCode } from '../../../lib/api-error';
import { cutName } from '../../../lib/format';
import { timeAgo } from '../lib/time-ago';
import { useDestinations } from '../../destinations';
import { usePushStudy, useStudyPushes } from '../api/study-push';

const STATUS_TEXT: Record<PushStatus, { text: string; severity: 'info' | 'success' | 'warning' | 'error' }> =
  {
    I: { text: 'Queued', severity: 'info' },
    N: { text: 'Sending', severity: 'info' },
    S: { text: 'Completed', severity: 'success' },
    P: { text: 'Partially sent', severity: 'warning' },
    F: { text: 'Failed', severity: 'error' },
  };

/** Direct push (study_push): push the exam to a destination, and its push history with Retry. */
export function PushPanel({ study, accountId }: { study: Study; accountId: string }) {
  const { t } = useTranslation();
  const destinations = useDestinations(accountId);
  const history = useStudyPushes(study.uuid);
  const push = usePushStudy(study.uuid);
  const [chosen, setChosen] = useState('');
  const pushable = (destinations.data ?? []).filter((d) => d.can_push === 1);

  const refused =
    push.isError &&
    (errorCode(push.error) === 'PENDING'
      ? t('This exam is already queued for that destination.')
      : t('The push could not be queued.'));

  return (
    <Stack spacing={2} component="section" aria-label={t('Push to a destination')}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <TextField
          select
          size="small"
          label={t('Destination')}
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          // The select gives way in a narrow panel; the button keeps its label on one line.
          sx={{ flex: 1, minWidth: 0, maxWidth: 320 }}
        >
          {pushable.map((d) => (
            <MenuItem key={d.uuid} value={d.uuid} title={d.name}>
              {cutName(d.name)}
            </MenuItem>
          ))}
        </TextField>
        <Button
          variant="contained"
          disabled={!chosen || push.isPending}
          onClick={() => push.mutate(chosen)}
          sx={{ flexShrink: 0, whiteSpace: 'nowrap' }}
        >
          {t('Push to PACS')}
        </Button>
      </Stack>
      {refused && <Alert severity="error">{refused}</Alert>}
      {destinations.data && pushable.length === 0 && (
        <Typography color="text.secondary">{t('No destination takes pushes.')}</Typography>
      )}
      {/* A live region: a push ending (Queued, then Completed or Failed) is read out as it happens. */}
      <List dense aria-label={t('Push history')} aria-live="polite">
        {(history.data ?? []).map((attempt) => (
          <PushAttempt
            key={attempt.uuid}
            attempt={attempt}
            retrying={push.isPending}
            onRetry={() => push.mutate(attempt.destination_id)}
          />
        ))}
      </List>
      {history.data?.length === 0 && <Typography color="text.secondary">{t('Not pushed yet.')}</Typography>}
    </Stack>
  );
}

function PushAttempt(props: { attempt: StudyPushAttempt; retrying: boolean; onRetry: () => void }) {
  const { t } = useTranslation();
  const { attempt } = props;
  const status = STATUS_TEXT[attempt.status];
  return (
    <ListItem disableGutters>
      <Alert
        severity={status.severity}
        sx={{ width: '100%' }}
        action={
          attempt.status === 'P' || attempt.status === 'F' ? (
            <Button color="inherit" size="small" disabled={props.retrying} onClick={props.onRetry}>
              {t('Retry')}
            </Button>
          ) : undefined
        }
      >
        <ListItemText
          primary={`${t(status.text)} — ${attempt.destination_name}`}
          secondary={
            <>
              {t('{{sent}} of {{count}} images sent, {{failed}} failed', {
                sent: attempt.images_sent,
                count: attempt.image_count,
                failed: attempt.images_failed,
              })}
              {' · '}
              {timeAgo(attempt.updated)}
              {attempt.deidentified && (
                <>
                  <br />
                  {t('De-identified with {{profile}}', { profile: attempt.deidentified.profile })}
                  {attempt.deidentified.refused_burned_in > 0 &&
                    ` · ${t('Images not sent because they may show burned-in patient text: {{count}}', {
                      count: attempt.deidentified.refused_burned_in,
                    })}`}
                </>
              )}
              {/* Our own refusal for burned-in text is said in words above, not as its code. */}
              {attempt.reason && attempt.reason !== 'burned_in_text' && (
                <>
                  <br />
                  {attempt.reason}
                </>
              )}
            </>
          }
        />
      </Alert>
    </ListItem>
  );
}
