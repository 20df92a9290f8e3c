import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
} from '@mui/material';
import { useTranslation } from '../../../../lib/i18n';
import { useRejectNomination } from '../../api/nomination';

const REQUIRED = 'Field is required';

interface Props {
  open: boolean;
  copyUuid: string;
  onClose: () => void;
  onRejected: () => void;
}

/** Reject a nomination (SPEC.md section 5, Rejection): reason and message, both required. */
export function RejectDialog({ open, copyUuid, onClose, onRejected }: Props) {
  const { t } = useTranslation();
  const reject = useRejectNomination(copyUuid);
  const [reason, setReason] = useState('');
  const [message, setMessage] = useState('');
  const [tried, setTried] = useState(false);
  const blankReason = tried && !reason.trim();
  const blankMessage = tried && !message.trim();

  const submit = () => {
    setTried(true);
    if (!reason.trim() || !message.trim()) return;
    reject.mutate({ reason: reason.trim(), message: message.trim() }, { onSuccess: onRejected });
  };

  return (
    <Dialog open={open} onClose={reject.isPending ? undefined : onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('Reject exam')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            label={t('Reason')}
            required
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            error={blankReason}
            helperText={blankReason ? t(REQUIRED) : undefined}
            slotProps={{ htmlInput: { maxLength: 200 } }}
            disabled={reject.isPending || reject.isSuccess}
          />
          <TextField
            label={t('Message')}
            required
            multiline
            minRows={3}
            value={message}
            onChange={(e) => setMessage(e.target.value)}
            error={blankMessage}
            helperText={blankMessage ? t(REQUIRED) : undefined}
            slotProps={{ htmlInput: { maxLength: 2000 } }}
            disabled={reject.isPending || reject.isSuccess}
          />
          {reject.isError && <Alert severity="error">{t('Failed to reject exam')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={reject.isPending}>
          {t('Cancel')}
        </Button>
        <Button
          variant="contained"
          color="error"
          onClick={submit}
          disabled={reject.isPending || reject.isSuccess}
        >
          {t('Reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
