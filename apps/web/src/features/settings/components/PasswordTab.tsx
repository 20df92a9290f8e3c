import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Stack, TextField } from '@mui/material';
import * as z from 'zod/mini';
import { MESSAGES, SUCCESS_BANNER_MS, newPasswordFieldSchema } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorBody } from '../../../lib/api-error';
import { useExpiringState } from '../../../lib/use-expiring-state';
import { useChangePassword } from '../api/profile';

/** SPEC "Password": current required, the new one by the password rules, a matching confirmation. */
const passwordChangeSchema = z
  .object({
    current: z.string().check(z.minLength(1, MESSAGES.passwordRequiredDot)),
    password: newPasswordFieldSchema,
    confirm: z.string().check(z.minLength(1, MESSAGES.confirmResetPasswordRequired)),
  })
  .check(
    z.refine((v) => v.password === v.confirm, { message: MESSAGES.passwordsDoNotMatch, path: ['confirm'] }),
  );
type PasswordChangeValues = z.infer<typeof passwordChangeSchema>;

const EMPTY: PasswordChangeValues = { current: '', password: '', confirm: '' };

/** Account settings, Password tab. Other sessions of the user end when the password changes. */
export function PasswordTab() {
  const { t } = useTranslation();
  const change = useChangePassword();
  const [changed, setChanged] = useExpiringState<true>(() => SUCCESS_BANNER_MS);
  const [unexpected, setUnexpected] = useState(false);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors },
  } = useForm<PasswordChangeValues>({ resolver: zodResolver(passwordChangeSchema), defaultValues: EMPTY });

  const onSubmit = handleSubmit((values) => {
    setChanged(null);
    setUnexpected(false);
    change.mutate(
      { old_password: values.current, password: values.password, password_confirm: values.confirm },
      {
        onSuccess: () => {
          reset(EMPTY);
          setChanged(true);
        },
        onError: (error) => {
          const body = errorBody(error);
          if (body?.error_type === 'INVALID_PASSWORD') {
            setError('current', { message: MESSAGES.currentPasswordWrong });
          } else if (body?.error_type === 'BAD_PASSWORD') {
            const reused = body.error_subtype === 'reused';
            setError('password', { message: reused ? MESSAGES.passwordReused : MESSAGES.passwordRule });
          } else if (body?.error_type === 'RATE_LIMITED') {
            setError('current', { message: MESSAGES.linkTooManyAttempts });
          } else {
            setUnexpected(true);
          }
        },
      },
    );
  });
  const message = (text?: string) => (text ? t(text) : undefined);

  return (
    <Box component="form" noValidate aria-label={t('Password')} onSubmit={onSubmit}>
      <Stack spacing={2} sx={{ maxWidth: 520 }}>
        {changed && <Alert severity="success">{t(MESSAGES.passwordChanged)}</Alert>}
        {unexpected && <UnexpectedErrorAlert />}
        <TextField
          label={t('Current password')}
          type="password"
          autoComplete="current-password"
          required
          error={!!errors.current}
          helperText={message(errors.current?.message)}
          {...register('current')}
        />
        <TextField
          label={t('New password')}
          type="password"
          autoComplete="new-password"
          required
          error={!!errors.password}
          helperText={message(errors.password?.message)}
          {...register('password')}
        />
        <TextField
          label={t('Confirm new password')}
          type="password"
          autoComplete="new-password"
          required
          error={!!errors.confirm}
          helperText={message(errors.confirm?.message)}
          {...register('confirm')}
        />
        <Box>
          <Button type="submit" variant="contained" loading={change.isPending}>
            {t('Change password')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}
