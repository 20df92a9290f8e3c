import { useState } from 'react';
import {
  Alert,
  IconButton,
  MenuItem,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { useSnackbar } from 'notistack';
import {
  DEFAULT_LINK_SORT,
  LINK_SORT_OPTIONS,
  MESSAGES,
  linkExpiryDays,
  type LinkSort,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { PagePanel } from '../../../components/PagePanel';
import { ScrollTable } from '../../../components/ScrollTable';
import { useInbox } from '../../../session/inbox-context';
import type { InboxGroup } from '../../../session/groups';
import { usePendingRequests, useRevokeLink } from '../api/links';

/** The Pending Requests state of a cloud group: its live request links, sortable and revocable. */
export function PendingRequests({ group }: { group: InboxGroup }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const { account } = useInbox();
  const { enqueueSnackbar } = useSnackbar();
  const [sort, setSort] = useState<LinkSort>(DEFAULT_LINK_SORT);
  const links = usePendingRequests(account.uuid, group.namespaceId, sort);
  const revoke = useRevokeLink();
  const now = Date.now();

  const onRevoke = (uuid: string) =>
    revoke.mutate(uuid, {
      onSuccess: () => enqueueSnackbar(t(MESSAGES.requestRevoked), { variant: 'success' }),
      onError: () => enqueueSnackbar(t(MESSAGES.requestRevokeFailed), { variant: 'error' }),
    });

  return (
    <PagePanel title={t('Pending Requests')}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
        <TextField
          select
          size="small"
          label={t('Sort by')}
          value={sort}
          onChange={(e) => setSort(e.target.value as LinkSort)}
          sx={{ minWidth: 240 }}
        >
          {LINK_SORT_OPTIONS.map((o) => (
            <MenuItem key={o.value} value={o.value}>
              {t(o.label)}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      {links.isError && <Alert severity="error">{t(MESSAGES.unexpectedError)}</Alert>}
      {links.data?.length === 0 && (
        <Typography color="text.secondary">{t(MESSAGES.noPendingRequests)}</Typography>
      )}
      {!!links.data?.length && (
        <ScrollTable label={t('Pending Requests')}>
          <Table size="small" stickyHeader aria-label={t('Pending Requests')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('Email')}</TableCell>
                <TableCell>{t('Mobile phone')}</TableCell>
                <TableCell>{t('Description')}</TableCell>
                <TableCell>{t('Share description')}</TableCell>
                <TableCell>{t('Created')}</TableCell>
                <TableCell>{t('Expires in (days)')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {links.data.map((link) => (
                <TableRow key={link.uuid}>
                  <TableCell>{link.email}</TableCell>
                  <TableCell>{link.mobile_phone ?? ''}</TableCell>
                  <TableCell>{link.description ?? ''}</TableCell>
                  <TableCell>{link.share_description ?? ''}</TableCell>
                  <TableCell>{dates.timestamp(new Date(link.created).toISOString())}</TableCell>
                  <TableCell>{linkExpiryDays(link.created, link.minutes_alive, now)}</TableCell>
                  <TableCell align="right">
                    <Tooltip title={t('Revoke')}>
                      <IconButton
                        aria-label={t('Revoke request to {{email}}', { email: link.email })}
                        disabled={revoke.isPending}
                        onClick={() => onRevoke(link.uuid)}
                      >
                        ✕
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
    </PagePanel>
  );
}
