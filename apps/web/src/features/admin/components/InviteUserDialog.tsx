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
import type { Role } from '@imaging-inbox/contract';
import { USER_ADMIN_MESSAGES, emailFieldSchema } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useInviteUser } from '../api/account-users';
import { NO_ROLE_CHOICE, roleParams } from '../lib/user-role';
import { RolePicker } from './RolePicker';

interface Props {
  accountId: string;
  roles: readonly Role[];
  allowAdmin: boolean;
  onClose: () => void;
}

/** Invite by e-mail: a new address gets a one-time link to choose a password. */
export function InviteUserDialog({ accountId, roles, allowAdmin, onClose }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const invite = useInviteUser();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState(NO_ROLE_CHOICE);
  const [touched, setTouched] = useState(false);
  const emailCheck = emailFieldSchema.safeParse(email);
  const emailProblem = emailCheck.success ? null : (emailCheck.error.issues[0]?.message ?? null);
  const refused = errorBody(invite.error);
  const refusedText = refused
    ? `${typeof refused.error_data === 'string' ? refused.error_data : refused.error_type}`
    : null;

  const submit = () => {
    setTouched(true);
    if (emailProblem) return;
    invite.mutate(
      { uuid: accountId, email: email.trim(), name: name.trim() || undefined, ...roleParams(role) },
      {
        onSuccess: () => {
          enqueueSnackbar(t(USER_ADMIN_MESSAGES.invited), { variant: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('Invite user')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={t('Email')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            error={
              touched && Boolean(emailProblem ?? (refused?.error_subtype === 'email' ? refusedText : null))
            }
            helperText={
              touched && emailProblem
                ? t(emailProblem)
                : refused?.error_subtype === 'email' && refusedText
                  ? t(refusedText)
                  : t('They get an e-mail with a link to choose their password.')
            }
            required
            fullWidth
            autoFocus
          />
          <TextField label={t('Name')} value={name} onChange={(e) => setName(e.target.value)} fullWidth />
          <RolePicker value={role} onChange={setRole} roles={roles} allowAdmin={allowAdmin} />
          {invite.isError && refused?.error_subtype !== 'email' && (
            <Alert severity="error">{t('The invitation was not sent')}</Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={invite.isPending}>
          {t('Send invitation')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
