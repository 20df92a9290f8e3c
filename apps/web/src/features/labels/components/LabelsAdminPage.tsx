import { useEffect, useState } from 'react';
import { Alert, Button, IconButton, Typography } from '@mui/material';
import Edit from '@mui/icons-material/Edit';
import { LANGUAGE_NAMES, type LabelOverride } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useDeleteLabel, useLabels } from '../api/labels';
import { AccountLanguageForm } from './AccountLanguageForm';
import { LabelDialog } from './LabelDialog';

/**
 * Administration → Labels (/organization/labels.html): the account's own wording of the app's
 * labels, per language (label_edit; account admins hold it). Each row replaces one English original
 * in one language for every user of the account, from their next page load. Account admins also
 * choose the account's default language here (the language of its users' e-mails).
 */
export function LabelsAdminPage({ knownTexts }: { knownTexts?: readonly string[] }) {
  const { t } = useTranslation();
  const offered = useKnownTexts(knownTexts);
  const { user, account, permissions } = useInbox();
  const canEdit = user.admin === 1 || user.sysadmin === 1 || permissions.label_edit === 1;
  // account/set is the account admins' alone (the server refuses anyone else).
  const setsLanguage = user.admin === 1;
  const labels = useLabels(account.uuid);
  const remove = useDeleteLabel(account.uuid);
  const [dialog, setDialog] = useState<{ editing: LabelOverride | undefined } | null>(null);

  if (!canEdit) {
    return (
      <PagePanel title={t('Labels')}>
        <Alert severity="error">{t("You don't have enough permissions to change labels")}</Alert>
      </PagePanel>
    );
  }
  return (
    <PagePanel
      title={t('Labels')}
      actions={
        <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
          {t('Add label')}
        </Button>
      }
    >
      {setsLanguage && <AccountLanguageForm accountId={account.uuid} settings={account.settings} />}
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        {t('Replace any text of the app with your own wording, in each language.')}
      </Typography>
      {labels.isPending && <Loading />}
      {labels.isError && <UnexpectedErrorAlert />}
      {labels.data && (
        <AdminTable
          label={t('Labels')}
          rows={labels.data}
          rowKey={(label) => `${label.language}:${label.key}`}
          emptyText={t('No labels replaced yet.')}
          columns={[
            { label: t('Language'), cell: (label) => LANGUAGE_NAMES[label.language] },
            { label: t('Original text'), cell: (label) => label.key, sx: { wordBreak: 'break-word' } },
            { label: t('Replacement'), cell: (label) => label.text, sx: { wordBreak: 'break-word' } },
          ]}
          actions={(label) => (
            <IconButton
              aria-label={t('Edit {{name}}', { name: label.key })}
              onClick={() => setDialog({ editing: label })}
            >
              <Edit fontSize="small" />
            </IconButton>
          )}
          remove={{
            label: (label) => t('Delete {{name}}', { name: label.key }),
            confirm: (label) => t('Show the original text of {{name}} again?', { name: label.key }),
            onDelete: (label) => remove.mutate(label),
          }}
        />
      )}
      {dialog && (
        <LabelDialog
          accountId={account.uuid}
          editing={dialog.editing}
          knownTexts={offered}
          onClose={() => setDialog(null)}
        />
      )}
    </PagePanel>
  );
}

/**
 * The app's texts to offer as originals: the keys of a translation table are exactly the English
 * texts the app shows (plural forms left out). Fetched with the page, not with the app.
 */
function useKnownTexts(given: readonly string[] | undefined): readonly string[] {
  const [loaded, setLoaded] = useState<readonly string[]>([]);
  useEffect(() => {
    if (given) return;
    let live = true;
    void import('../../../locales/fr').then(({ default: table }) => {
      if (live)
        setLoaded(
          Object.keys(table)
            .filter((key) => !/_(one|other|many)$/.test(key))
            .sort(),
        );
    });
    return () => {
      live = false;
    };
  }, [given]);
  return given ?? loaded;
}
