import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import { useId } from 'react';

interface Props {
  open: boolean;
  /** Already translated: the question the user answers. */
  title: string;
  /** Already translated: what happens if they confirm. */
  text?: string;
  /** Already translated: the confirming button's label (the action, not "OK"). */
  confirmLabel: string;
  /** Already translated: the button that leaves things as they are. */
  dismissLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/**
 * A question asked before an action that cannot be taken back, as a real dialog (focus moves into
 * it and back, Escape closes it, a screen reader reads its title and text) instead of the browser's
 * confirm box.
 */
export function ConfirmDialog({
  open,
  title,
  text,
  confirmLabel,
  dismissLabel,
  busy = false,
  onConfirm,
  onClose,
}: Props) {
  const titleId = useId();
  const textId = useId();
  return (
    <Dialog
      open={open}
      onClose={busy ? undefined : onClose}
      aria-labelledby={titleId}
      aria-describedby={text ? textId : undefined}
      maxWidth="xs"
      fullWidth
    >
      <DialogTitle id={titleId}>{title}</DialogTitle>
      {text && (
        <DialogContent>
          <DialogContentText id={textId}>{text}</DialogContentText>
        </DialogContent>
      )}
      <DialogActions>
        <Button onClick={onClose} disabled={busy} autoFocus>
          {dismissLabel}
        </Button>
        <Button variant="contained" color="error" onClick={onConfirm} disabled={busy}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
