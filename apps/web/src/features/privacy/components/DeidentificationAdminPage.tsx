import { useState } from 'react';
import { Alert, Button, IconButton } from '@mui/material';
import Edit from '@mui/icons-material/Edit';
import type { AnonymizationProfile } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { deleteRefusal } from '../lib/delete-refusal';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useAnonymizationProfiles, useDeleteProfile } from '../api/anonymization';
import { OPTION_LABELS } from './option-labels';
import { ProfileDialog } from './ProfileDialog';

/**
 * Administration → De-identification: the account's profiles (PS3.15 Annex E's Basic Profile and
 * the options chosen), used by de-identified downloads and by the groups they de-identify into.
 */
export function DeidentificationAdminPage() {
  const { t } = useTranslation();
  const { account, permissions } = useInbox();
  const profiles = useAnonymizationProfiles(account.uuid);
  const remove = useDeleteProfile();
  const [dialog, setDialog] = useState<{ editing: AnonymizationProfile | undefined } | null>(null);
  // Why the last delete was refused, in words (what still uses the profile): it stays until closed.
  const [refusal, setRefusal] = useState<string | null>(null);
  const mayEdit = permissions.anonymization_edit === 1;

  if (profiles.isError && !profiles.data) {
    return (
      <PagePanel title={t('De-identification')}>
        <UnexpectedErrorAlert />
      </PagePanel>
    );
  }
  return (
    <PagePanel
      title={t('De-identification')}
      actions={
        mayEdit && (
          <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
            {t('Add profile')}
          </Button>
        )
      }
    >
      <Alert severity="info" sx={{ mb: 2 }}>
        {t(
          'Names, IDs, dates and UIDs are replaced by pseudonyms that stay the same for a patient in this account. The original exams are never changed.',
        )}
      </Alert>
      {refusal && (
        <Alert severity="error" sx={{ mb: 2 }} onClose={() => setRefusal(null)}>
          {refusal}
        </Alert>
      )}
      {profiles.isPending && <Loading />}
      {profiles.data && (
        <AdminTable
          label={t('De-identification')}
          rows={profiles.data}
          rowKey={(p) => p.uuid}
          emptyText={t('No profiles yet.')}
          columns={[
            { label: t('Name'), cell: (p) => p.name },
            {
              label: t('Options'),
              cell: (p) =>
                p.options.length
                  ? p.options.map((o) => t(OPTION_LABELS[o])).join('; ')
                  : t('Basic profile only'),
            },
            { label: t('Groups'), cell: (p) => String(p.groups.length) },
            {
              label: t('Burned-in text'),
              cell: (p) => (p.keep_burned_in ? t('Passed') : t('Refused')),
            },
          ]}
          actions={(p) =>
            mayEdit && (
              <IconButton
                aria-label={t('Edit {{name}}', { name: p.name })}
                onClick={() => setDialog({ editing: p })}
              >
                <Edit fontSize="small" />
              </IconButton>
            )
          }
          remove={
            mayEdit
              ? {
                  label: (p) => t('Delete {{name}}', { name: p.name }),
                  confirm: (p) => t('Delete the profile {{name}}?', { name: p.name }),
                  onDelete: (p) => {
                    setRefusal(null);
                    remove.mutate(p.uuid, {
                      onError: (error) => setRefusal(deleteRefusal(t, p.name, error)),
                    });
                  },
                }
              : undefined
          }
        />
      )}
      {dialog && (
        <ProfileDialog accountId={account.uuid} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
    </PagePanel>
  );
}
