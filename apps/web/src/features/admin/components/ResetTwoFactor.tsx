import { useState } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import type { AccountUser } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorBody } from '../../../lib/api-error';
import { useTranslation } from '../../../lib/i18n';
import { useResetTwoFactor } from '../api/account-users';

/** The server's reasons for refusing a reset, in words. */
function refusalText(error: unknown): string {
  const subtype = errorBody(error)?.error_subtype;
  if (subtype === 'own_two_factor') return 'You turn off your own two-factor sign-in in Account settings.';
  if (subtype === 'admin') return "Only an admin can reset an admin's two-factor sign-in.";
  if (subtype === 'home_account')
    return 'Only the account this person belongs to can reset their two-factor sign-in.';
  return 'Two-factor sign-in was not reset.';
}

/**
 * A member's lost phone (and recovery codes): the admin removes their two-factor codes, after a
 * confirmation. The person then signs in with the password alone, or sets codes up again at the
 * next sign-in when the account requires them.
 */
export function ResetTwoFactor({ accountId, user }: { accountId: string; user: AccountUser }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const reset = useResetTwoFactor();
  const [asking, setAsking] = useState(false);
  const name = user.name || user.email;

  const confirm = () =>
    reset.mutate(
      { accountId, userId: user.uuid },
      {
        onSuccess: ({ removed }) => {
          enqueueSnackbar(
            removed
              ? t('Two-factor sign-in of {{name}} was reset.', { name })
              : t('{{name}} had no two-factor sign-in to reset.', { name }),
            { variant: removed ? 'success' : 'info' },
          );
        },
        onSettled: () => setAsking(false),
      },
    );

  return (
    <Box>
      <Stack spacing={1} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="subtitle2">{t('Two-factor sign-in')}</Typography>
        <Typography variant="body2" color="text.secondary">
          {t(
            'If this person lost their phone and recovery codes, reset their codes: they sign in with their password alone, or set up codes again if the account requires them.',
          )}
        </Typography>
        <Button variant="outlined" color="error" onClick={() => setAsking(true)}>
          {t('Reset two-factor sign-in')}
        </Button>
        {reset.isError && <Alert severity="error">{t(refusalText(reset.error))}</Alert>}
      </Stack>
      <ConfirmDialog
        open={asking}
        title={t('Reset two-factor sign-in of {{name}}?', { name })}
        text={t(
          'Their authenticator app and recovery codes stop working. Do this only once you are sure it is them asking.',
        )}
        confirmLabel={t('Reset')}
        dismissLabel={t('Cancel')}
        busy={reset.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      />
    </Box>
  );
}
