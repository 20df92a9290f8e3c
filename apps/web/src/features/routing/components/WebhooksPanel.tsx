import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  FormControlLabel,
  FormGroup,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { WEBHOOK_EVENTS } from '@imaging-inbox/contract';
import type { Webhook, WebhookEvent } from '@imaging-inbox/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { AdminTable } from '../../../components/AdminTable';
import { useDateDisplay } from '../../../lib/date-preferences';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAddWebhook, useDeleteWebhook, useDeliveries } from '../api/routing';

const EVENT_NAMES: Record<WebhookEvent, string> = {
  study_uploaded: 'Exam uploaded',
  study_harvested: 'Exam received from a sender',
  study_shared: 'Exam shared',
  study_pushed_success: 'Sent to PACS',
  study_pushed_failure: 'Sending to PACS failed',
  study_nominated: 'Exam nominated',
  study_rejected: 'Nomination rejected',
};

interface Props {
  accountId: string;
  webhooks: UseQueryResult<Webhook[]>;
}

/** Webhooks of the account (its admins'): add with a URL and events, delete, and read each one's deliveries. */
export function WebhooksPanel({ accountId, webhooks }: Props) {
  const { t } = useTranslation();
  const add = useAddWebhook();
  const remove = useDeleteWebhook();
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookEvent[]>(['study_uploaded']);
  const [open, setOpen] = useState<string | null>(null);
  const refused = errorBody(add.error);

  return (
    <Box sx={{ mt: 4 }}>
      <Typography variant="h6">{t('Webhooks')}</Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('Each delivery is signed with the webhook secret (X-Imaging-Inbox-Signature).')}
      </Typography>
      {(webhooks.data ?? []).length > 0 && (
        <AdminTable
          label={t('Webhooks')}
          rows={webhooks.data!}
          rowKey={(w) => w.uuid}
          emptyText=""
          columns={[
            { label: t('Name'), cell: (w) => w.name },
            { label: t('URL'), cell: (w) => w.url, sx: { wordBreak: 'break-all' } },
            { label: t('Events'), cell: (w) => w.events.map((e) => t(EVENT_NAMES[e])).join(', ') },
          ]}
          actions={(w) => (
            <Button size="small" onClick={() => setOpen(open === w.uuid ? null : w.uuid)}>
              {open === w.uuid ? t('Hide deliveries') : t('Deliveries')}
            </Button>
          )}
          remove={{
            label: (w) => t('Delete {{name}}', { name: w.name }),
            confirm: (w) => t('Delete the webhook {{name}}?', { name: w.name }),
            onDelete: (w) => remove.mutate(w.uuid),
          }}
        />
      )}
      {open && (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle2">
            {t('Latest deliveries of {{name}}', {
              name: webhooks.data?.find((w) => w.uuid === open)?.name ?? '',
            })}
          </Typography>
          <Deliveries uuid={open} />
        </Box>
      )}
      <Stack spacing={1} sx={{ mt: 2, maxWidth: 720 }} role="group" aria-label={t('Add webhook')}>
        <Typography variant="subtitle2">{t('Add webhook')}</Typography>
        <Stack direction="row" spacing={1}>
          <TextField size="small" label={t('Name')} value={name} onChange={(e) => setName(e.target.value)} />
          <TextField
            size="small"
            label={t('URL')}
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            sx={{ flex: 1 }}
          />
        </Stack>
        <FormGroup row>
          {WEBHOOK_EVENTS.map((event) => (
            <FormControlLabel
              key={event}
              label={t(EVENT_NAMES[event])}
              control={
                <Checkbox
                  size="small"
                  checked={events.includes(event)}
                  onChange={(e) =>
                    setEvents(e.target.checked ? [...events, event] : events.filter((x) => x !== event))
                  }
                />
              }
            />
          ))}
        </FormGroup>
        {refused && (
          <Alert severity="error">
            {refused.error_subtype === 'url'
              ? t('This URL is refused: {{why}}', {
                  why: typeof refused.error_data === 'string' ? refused.error_data : '',
                })
              : t('The webhook was not saved: {{why}}', {
                  why: String(refused.error_subtype ?? refused.error_type),
                })}
          </Alert>
        )}
        <Box>
          <Button
            variant="outlined"
            disabled={!name.trim() || !url.trim() || !events.length || add.isPending}
            onClick={() =>
              add.mutate(
                { account_id: accountId, name: name.trim(), url: url.trim(), event: events.join(',') },
                {
                  onSuccess: () => {
                    setName('');
                    setUrl('');
                  },
                },
              )
            }
          >
            {t('Add webhook')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

function Deliveries({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const deliveries = useDeliveries(uuid);
  const dates = useDateDisplay();
  if (!deliveries.data) return null;
  if (!deliveries.data.length)
    return <Typography color="text.secondary">{t('No deliveries yet.')}</Typography>;
  return (
    <Table size="small" aria-label={t('Deliveries')} sx={{ mt: 1 }}>
      <TableHead>
        <TableRow>
          <TableCell>{t('When')}</TableCell>
          <TableCell>{t('Event')}</TableCell>
          <TableCell>{t('Status')}</TableCell>
          <TableCell>{t('Attempts')}</TableCell>
          <TableCell>{t('Last answer')}</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {deliveries.data.map((d) => (
          <TableRow key={d.uuid}>
            <TableCell sx={{ whiteSpace: 'nowrap' }}>
              {dates.timestamp(new Date(d.created).toISOString())}
            </TableCell>
            <TableCell>
              {d.event in EVENT_NAMES ? t(EVENT_NAMES[d.event as WebhookEvent]) : t('Routing rule')}
            </TableCell>
            <TableCell>
              <Chip
                size="small"
                color={d.status === 'delivered' ? 'success' : d.status === 'failed' ? 'error' : 'default'}
                label={t(
                  d.status === 'delivered' ? 'Delivered' : d.status === 'failed' ? 'Failed' : 'Pending',
                )}
              />
            </TableCell>
            <TableCell>{d.attempts}</TableCell>
            <TableCell>{d.last_status_code ?? d.last_error ?? '—'}</TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
