import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Box, Button, Link, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { FormTextField } from '../../../components/FormTextField';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { loginErrors, type LoginValues } from '../login-rules';

export function LoginForm({ onForgotPassword }: { onForgotPassword: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const loginMutation = useLogin();
  const [values, setValues] = useState<LoginValues>({ login: '', password: '' });
  // Errors show after the first attempt and then follow the typing, as the other forms do.
  const [attempted, setAttempted] = useState(false);
  const errors = attempted ? loginErrors(values) : {};
  const field = (name: keyof LoginValues) => ({
    name,
    value: values[name],
    onChange: (e: { target: { value: string } }) => setValues((v) => ({ ...v, [name]: e.target.value })),
    error: errors[name] !== undefined,
    helperText: errors[name] !== undefined ? t(errors[name]) : undefined,
  });

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const [invalid] = Object.keys(loginErrors(values));
    if (invalid !== undefined) {
      // Where the first message is, as a screen reader user needs it.
      const input = event.currentTarget.elements.namedItem(invalid);
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    const trimmed = { ...values, login: values.login.trim() };
    loginMutation.mutate(trimmed, { onSuccess: () => void navigate('/group/list', { replace: true }) });
  };
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
        <FormTextField label={t('Username')} autoComplete="username" autoFocus required {...field('login')} />
        <FormTextField
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          required
          {...field('password')}
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
