import { useState } from 'react';
import { Alert, Button, Chip, IconButton, Tooltip } from '@mui/material';
import Edit from '@mui/icons-material/Edit';
import { NO_DICOM_ANSWER } from '@imaging-inbox/contract';
import type { Destination } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useDeleteDestination, useDestinations, useEchoDestination } from '../api/destinations';
import { DestinationDialog } from './DestinationDialog';

/** Administration: the account's PACS destinations, to list, add, edit, delete and test (C-ECHO). */
export function DestinationsAdminPage() {
  const { t } = useTranslation();
  // The server's one reason for an echo that got no DICOM answer, in the user's language.
  const echoReason = (reason: string | null) =>
    reason === NO_DICOM_ANSWER ? t('no DICOM answer') : (reason ?? '');
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
      {destinations.data && (
        <AdminTable
          label={t('Destinations')}
          rows={destinations.data}
          rowKey={(d) => d.uuid}
          emptyText={t('No destinations yet.')}
          columns={[
            { label: t('Name'), cell: (d) => d.name },
            { label: t('AE title'), cell: (d) => d.aetitle },
            { label: t('Address'), cell: (d) => `${d.address}:${d.port}` },
            {
              label: t('Used for'),
              cell: (d) =>
                [d.can_search && t('Search'), d.can_search_mwl && t('Worklist'), d.can_push && t('Push')]
                  .filter(Boolean)
                  .join(', '),
            },
            {
              label: t('Last test'),
              cell: (d) =>
                d.last_echo === null ? (
                  '—'
                ) : d.last_echo.ok ? (
                  <Chip size="small" color="success" label={t('OK, {{ms}} ms', { ms: d.last_echo.ms })} />
                ) : (
                  <Tooltip title={echoReason(d.last_echo.reason)}>
                    <Chip
                      size="small"
                      color="error"
                      label={t('Failed: {{reason}}', { reason: echoReason(d.last_echo.reason) })}
                    />
                  </Tooltip>
                ),
            },
          ]}
          actions={(d) => (
            <>
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
            </>
          )}
          remove={{
            label: (d) => t('Delete {{name}}', { name: d.name }),
            confirm: (d) => t('Delete the destination {{name}}?', { name: d.name }),
            onDelete: (d) => remove.mutate(d.uuid),
          }}
        />
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
