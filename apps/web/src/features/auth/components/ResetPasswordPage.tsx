import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { CenteredCard } from '../../../components/CenteredCard';
import { FormTextField } from '../../../components/FormTextField';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { usePasswordReset } from '../api/password-reset';
import { resetPasswordSchema, type ResetPasswordValues } from '../schemas';

const INVALID_LINK = 'This password reset link is invalid or has expired.';

/** Reached from the mailed link `/reset-password?token=…`. */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const reset = usePasswordReset();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    defaultValues: { password: '', confirm: '' },
  });

  const onSubmit = handleSubmit((values) =>
    reset.mutate(
      { token, password: values.password },
      {
        onSuccess: () => void navigate('/', { replace: true, state: { notice: MESSAGES.passwordResetDone } }),
        onError: (error) => {
          if (errorCode(error) === 'BAD_PASSWORD') setError('password', { message: MESSAGES.passwordReused });
        },
      },
    ),
  );
  const failure = reset.isError ? errorCode(reset.error) : null;
  const linkInvalid = token === '' || failure === 'EXPIRED' || failure === 'NOT_FOUND';

  return (
    <CenteredCard title={t('Reset password')}>
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('Reset password')}>
        <Stack spacing={2}>
          {linkInvalid && <Alert severity="error">{t(INVALID_LINK)}</Alert>}
          {failure !== null && !linkInvalid && failure !== 'BAD_PASSWORD' && <UnexpectedErrorAlert />}
          <FormTextField
            label={t('New password')}
            type="password"
            autoComplete="new-password"
            autoFocus
            required
            disabled={token === ''}
            error={!!errors.password}
            helperText={errors.password ? t(errors.password.message ?? '') : undefined}
            {...register('password')}
          />
          <FormTextField
            label={t('Confirm password')}
            type="password"
            autoComplete="new-password"
            required
            disabled={token === ''}
            error={!!errors.confirm}
            helperText={errors.confirm ? t(errors.confirm.message ?? '') : undefined}
            {...register('confirm')}
          />
          <Button type="submit" variant="contained" disabled={token === ''} loading={reset.isPending}>
            {t('Reset password')}
          </Button>
          <Link component={RouterLink} to="/">
            {t('Back to sign in')}
          </Link>
        </Stack>
      </Box>
    </CenteredCard>
  );
}
