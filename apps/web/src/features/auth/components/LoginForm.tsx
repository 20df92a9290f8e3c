import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { FormTextField } from '../../../components/FormTextField';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { loginSchema, type LoginValues } from '../schemas';

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    defaultValues: { login: '', password: '' },
  });

  const onSubmit = handleSubmit((values) =>
    loginMutation.mutate(values, { onSuccess: () => void navigate('/group/list', { replace: true }) }),
  );
  const failure = loginMutation.isError ? errorCode(loginMutation.error) : null;

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('Sign in')}>
      <Stack spacing={2}>
        {failure === 'BAD_PASSWORD' && <Alert severity="error">{t(MESSAGES.badCredentials)}</Alert>}
        {failure === 'RATE_LIMITED' && (
          <Alert severity="error">
            {t('Too many sign-in attempts. Please wait a few minutes and try again.')}
          </Alert>
        )}
        {failure !== null && failure !== 'BAD_PASSWORD' && failure !== 'RATE_LIMITED' && (
          <UnexpectedErrorAlert />
        )}
        <FormTextField
          label={t('Username')}
          autoComplete="username"
          autoFocus
          required
          error={!!errors.login}
          helperText={errors.login ? t(errors.login.message ?? '') : undefined}
          {...register('login')}
        />
        <FormTextField
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          required
          error={!!errors.password}
          helperText={errors.password ? t(errors.password.message ?? '') : undefined}
          {...register('password')}
        />
        <Button type="submit" variant="contained" size="large" loading={loginMutation.isPending}>
          {t('Sign in')}
        </Button>
        <Link component="button" type="button" onClick={onForgotPassword} sx={{ alignSelf: 'flex-start' }}>
          {t('Forgot password?')}
        </Link>
      </Stack>
    </Box>
  );
}
