import { useState } from 'react';
import {
  Alert,
  Button,
  Chip,
  IconButton,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import type { Destination } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useDeleteDestination, useDestinations, useEchoDestination } from '../api/destinations';
import { DestinationDialog } from './DestinationDialog';

/** Administration: the account's PACS destinations, to list, add, edit, delete and test (C-ECHO). */
export function DestinationsAdminPage() {
  const { t } = useTranslation();
  const { user, account } = useInbox();
  const isAdmin = user.admin === 1 || user.sysadmin === 1;
  const destinations = useDestinations(account.uuid);
  const remove = useDeleteDestination();
  const echo = useEchoDestination();
  const [dialog, setDialog] = useState<{ editing: Destination | undefined } | null>(null);

  if (!isAdmin) {
    return (
      <PagePanel title={t('Destinations')}>
        <Alert severity="error">{t("You don't have enough permissions to manage destinations")}</Alert>
      </PagePanel>
    );
  }
  return (
    <PagePanel
      title={t('Destinations')}
      actions={
        <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
          {t('Add destination')}
        </Button>
      }
    >
      {destinations.isPending && <Loading />}
      {destinations.isError && <UnexpectedErrorAlert />}
      {destinations.data?.length === 0 && (
        <Typography color="text.secondary">{t('No destinations yet.')}</Typography>
      )}
      {destinations.data && destinations.data.length > 0 && (
        <Table size="small" aria-label={t('Destinations')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('Name')}</TableCell>
              <TableCell>{t('AE title')}</TableCell>
              <TableCell>{t('Address')}</TableCell>
              <TableCell>{t('Used for')}</TableCell>
              <TableCell>{t('Last test')}</TableCell>
              <TableCell align="right">{t('Actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {destinations.data.map((d) => (
              <TableRow key={d.uuid}>
                <TableCell>{d.name}</TableCell>
                <TableCell>{d.aetitle}</TableCell>
                <TableCell>
                  {d.address}:{d.port}
                </TableCell>
                <TableCell>
                  {[d.can_search && t('Search'), d.can_search_mwl && t('Worklist'), d.can_push && t('Push')]
                    .filter(Boolean)
                    .join(', ')}
                </TableCell>
                <TableCell>
                  {d.last_echo === null ? (
                    '—'
                  ) : d.last_echo.ok ? (
                    <Chip size="small" color="success" label={t('OK, {{ms}} ms', { ms: d.last_echo.ms })} />
                  ) : (
                    <Tooltip title={d.last_echo.reason ?? ''}>
                      <Chip
                        size="small"
                        color="error"
                        label={t('Failed: {{reason}}', { reason: d.last_echo.reason })}
                      />
                    </Tooltip>
                  )}
                </TableCell>
                <TableCell align="right">
                  <Button
                    size="small"
                    onClick={() => echo.mutate(d.uuid)}
                    disabled={echo.isPending && echo.variables === d.uuid}
                  >
                    {echo.isPending && echo.variables === d.uuid ? t('Testing…') : t('Test')}
                  </Button>
                  <IconButton
                    aria-label={t('Edit {{name}}', { name: d.name })}
                    onClick={() => setDialog({ editing: d })}
                  >
                    <Edit fontSize="small" />
                  </IconButton>
                  <IconButton
                    aria-label={t('Delete {{name}}', { name: d.name })}
                    onClick={() => {
                      if (window.confirm(t('Delete the destination {{name}}?', { name: d.name })))
                        remove.mutate(d.uuid);
                    }}
                  >
                    <Delete fontSize="small" />
                  </IconButton>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {dialog && (
        <DestinationDialog
          accountId={account.uuid}
          editing={dialog.editing}
          onClose={() => setDialog(null)}
        />
      )}
    </PagePanel>
  );
}
