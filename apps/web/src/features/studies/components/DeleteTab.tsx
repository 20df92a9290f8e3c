import { Box, Button, Typography } from '@mui/material';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import RestoreFromTrash from '@mui/icons-material/RestoreFromTrash';
import type { Study } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { useDeleteStudies } from '../api/study-delete';
import { useRestoreStudies } from '../api/study-restore';
import { deleteNotices, restoreNotices, type ActionOutcome, type Notice } from '../lib/exam-actions';

interface Props {
  studies: Study[];
  /** Deleted items: the tab restores instead of deleting. */
  deleted: boolean;
  /** uuids that left the current list (deleted or restored), to drop from the selection. */
  onDone: (uuids: string[]) => void;
}

/** Delete exams tab: moves the studies to Deleted items, or restores them from there. */
export function DeleteTab({ studies, deleted, onDone }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const remove = useDeleteStudies();
  const restore = useRestoreStudies();
  const busy = remove.isPending || restore.isPending;
  const uuids = studies.map((s) => s.uuid);
  const count = studies.length;

  const notify = (notices: Notice[]) => {
    for (const notice of notices) enqueueSnackbar(t(notice.text), { variant: notice.variant });
  };
  const allFailed: ActionOutcome = { succeeded: [], failed: uuids.map((uuid) => ({ uuid, code: 'ERROR' })) };
  const noticesFor = deleted ? restoreNotices : deleteNotices;

  // mutateAsync rather than mutate callbacks: the list refetch removes these studies and so
  // unmounts this panel, and per-call callbacks of an unmounted component are never called.
  const run = async () => {
    let outcome: ActionOutcome;
    try {
      outcome = await (deleted ? restore : remove).mutateAsync(uuids);
    } catch {
      notify(noticesFor(count, allFailed));
      return;
    }
    notify(noticesFor(count, outcome));
    if (outcome.succeeded.length) onDone(outcome.succeeded);
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}>
      <Typography variant="body2">
        {deleted
          ? t('Restore {{count}} exam(s) from Deleted items to the Inbox.', { count })
          : t(
              'Move {{count}} exam(s) to Deleted items. They can be restored until the retention period ends.',
              { count },
            )}
      </Typography>
      {deleted ? (
        <Button
          variant="contained"
          startIcon={<RestoreFromTrash />}
          disabled={busy}
          onClick={() => void run()}
        >
          {count === 1 ? t('Restore exam') : t('Restore {{count}} exams', { count })}
        </Button>
      ) : (
        <Button
          variant="contained"
          color="error"
          startIcon={<DeleteOutlined />}
          disabled={busy}
          onClick={() => void run()}
        >
          {count === 1 ? t('Delete exam') : t('Delete {{count}} exams', { count })}
        </Button>
      )}
    </Box>
  );
}
