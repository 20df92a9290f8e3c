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
import type { AccountUser, Role } from '@imaging-inbox/contract';
import { USER_ADMIN_MESSAGES } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useSetAccountUser } from '../api/account-users';
import { roleChoiceOf, roleParams } from '../lib/user-role';
import { ResetTwoFactor } from './ResetTwoFactor';
import { RolePicker } from './RolePicker';

interface Props {
  accountId: string;
  user: AccountUser;
  roles: readonly Role[];
  allowAdmin: boolean;
  onClose: () => void;
}

/** The server's reasons, in words: the last admin, the admin role, one's own role. */
function refusalText(error: unknown): string | null {
  const body = errorBody(error);
  if (!body) return null;
  if (body.error_type === 'LAST_ADMIN') return 'The account must keep at least one enabled admin.';
  if (body.error_subtype === 'admin') return 'Only an admin can change the admin role.';
  if (body.error_subtype === 'own_role') return 'You cannot change your own role.';
  if (body.error_subtype === 'name') return 'Please enter a name.';
  if (body.error_subtype === 'home_account')
    return 'Only the account this person belongs to can change their name.';
  if (body.error_subtype === 'beyond_own_permissions')
    return 'You cannot give a role with permissions you do not hold.';
  return null;
}

/**
 * Edit a user's name and role. The name of someone whose home is another account is theirs and
 * their account's, shown but not changed here (decision 0052).
 */
export function EditUserDialog({ accountId, user, roles, allowAdmin, onClose }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useSetAccountUser();
  const [name, setName] = useState(user.name);
  const [role, setRole] = useState(roleChoiceOf(user));
  const renamable = user.renamable === 1;
  const blank = renamable && !name.trim();
  const refused = refusalText(save.error);

  const submit = () => {
    if (blank) return;
    save.mutate(
      {
        uuid: accountId,
        user_id: user.uuid,
        ...(renamable ? { name: name.trim() } : {}),
        // Only a changed role is sent: saving a name alone never touches (or needs rights over) the role.
        ...(role === roleChoiceOf(user) ? {} : roleParams(role)),
      },
      {
        onSuccess: () => {
          enqueueSnackbar(t(USER_ADMIN_MESSAGES.saved), { variant: 'success' });
          onClose();
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('Edit user')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField label={t('Email')} value={user.email} disabled fullWidth />
          <TextField
            label={t('Name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={blank}
            helperText={
              blank
                ? t('Please enter a name.')
                : renamable
                  ? undefined
                  : t('The name is kept by the account this person belongs to.')
            }
            disabled={!renamable}
            required
            fullWidth
          />
          <RolePicker value={role} onChange={setRole} roles={roles} allowAdmin={allowAdmin} />
          {save.isError && <Alert severity="error">{t(refused ?? 'The user was not saved')}</Alert>}
          {/* Their codes are their home account's to reset; a pending invitation has none yet. */}
          {renamable && user.invited !== 1 && <ResetTwoFactor accountId={accountId} user={user} />}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={save.isPending || blank}>
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
