import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { MESSAGES, type TotpEnrolment } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { FormTextField } from '../../../components/FormTextField';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { RecoveryCodesList } from '../../../components/RecoveryCodesList';
import { TotpEnrolmentCard } from '../../../components/TotpEnrolmentCard';
import { errorBody, errorCode } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { useSignInNavigation } from '../sign-in-navigation';
import { loginErrors, type LoginValues } from '../login-rules';
import { markSsoStarted, ssoStartUrl } from '../api/sso';

/** SSO_REQUIRED: the account signs in through its provider; the button goes there. */
function SsoRequired({ data }: { data: unknown }) {
  const { t } = useTranslation();
  const { account_id: accountId, provider } = (data ?? {}) as { account_id?: string; provider?: string };
  return (
    <Alert
      severity="info"
      action={
        accountId ? (
          <Button
            color="inherit"
            size="small"
            href={ssoStartUrl({ accountId })}
            onClick={() => markSsoStarted()}
          >
            {t('Sign in with {{provider}}', { provider: provider ?? '' })}
          </Button>
        ) : undefined
      }
    >
      {t('Your organisation signs in with single sign-on ({{provider}}), not with a password here.', {
        provider: provider ?? '',
      })}
    </Alert>
  );
}

export function LoginForm({
  onForgotPassword,
  initialLogin = '',
}: {
  onForgotPassword: () => void;
  /** The e-mail typed at the single sign-on step, when the page asked for it first. */
  initialLogin?: string;
}) {
  const { t } = useTranslation();
  const { leave } = useSignInNavigation();
  const loginMutation = useLogin();
  const [values, setValues] = useState<LoginValues>({ login: initialLogin, password: '' });
  // After a right password: the code step (MFA_REQUIRED), with a secret to scan first when the
  // account requires codes and the user has none (MFA_ENROLMENT_REQUIRED).
  const [codeStep, setCodeStep] = useState<{ enrolment: TotpEnrolment | null } | null>(null);
  const [otp, setOtp] = useState('');
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  // The MFA_REQUIRED answer the user left with Back: it does not bring the code step back.
  const [leftError, setLeftError] = useState<unknown>(null);
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
    const trimmed = { ...values, login: values.login.trim(), ...(codeStep ? { otp } : {}) };
    loginMutation.mutate(trimmed, {
      onSuccess: ({ recoveryCodes: codes }) => {
        if (codes) setRecoveryCodes(codes);
        else leave('/group/list');
      },
    });
  };
  const failure = loginMutation.isError ? errorCode(loginMutation.error) : null;
  const due = failure === 'MFA_REQUIRED' || failure === 'MFA_ENROLMENT_REQUIRED';
  // A right password that needs a code moves to the code step once; a wrong code keeps it.
  if (due && codeStep === null && loginMutation.error !== leftError) {
    const data = errorBody(loginMutation.error)?.error_data as TotpEnrolment | undefined;
    setCodeStep({ enrolment: failure === 'MFA_ENROLMENT_REQUIRED' && data ? data : null });
  }

  if (recoveryCodes) {
    return (
      <Stack spacing={2}>
        <Alert severity="success">{t('Two-factor sign-in is on.')}</Alert>
        <RecoveryCodesList codes={recoveryCodes} />
        <Button variant="contained" onClick={() => leave('/group/list')}>
          {t('Continue')}
        </Button>
      </Stack>
    );
  }
  if (codeStep) {
    return (
      <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('Two-factor sign-in')}>
        <Stack spacing={2}>
          {failure === 'BAD_OTP' && (
            <Alert severity="error">{t('Wrong or expired code. Try the newest one.')}</Alert>
          )}
          {failure === 'RATE_LIMITED' && (
            <Alert severity="error">
              {t('Too many sign-in attempts. Please wait a few minutes and try again.')}
            </Alert>
          )}
          {failure !== null && !due && failure !== 'BAD_OTP' && failure !== 'RATE_LIMITED' && (
            <UnexpectedErrorAlert />
          )}
          {codeStep.enrolment ? (
            <>
              <Typography>
                {t('Your organisation requires a code from your phone at each sign-in.')}
              </Typography>
              <TotpEnrolmentCard enrolment={codeStep.enrolment} />
            </>
          ) : (
            <Typography>
              {t('Enter the 6-digit code from your authenticator app, or a recovery code.')}
            </Typography>
          )}
          <FormTextField
            name="otp"
            label={t('Code')}
            autoComplete="one-time-code"
            autoFocus
            required
            value={otp}
            onChange={(e) => setOtp(e.target.value)}
            maxLength={32}
            spellCheck={false}
          />
          <Button type="submit" variant="contained" size="large" loading={loginMutation.isPending}>
            {t('Verify')}
          </Button>
          <Link
            component="button"
            type="button"
            onClick={() => {
              setCodeStep(null);
              setLeftError(loginMutation.error);
              setOtp('');
              setValues((v) => ({ ...v, password: '' }));
            }}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('Back')}
          </Link>
        </Stack>
      </Box>
    );
  }

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('Sign in')}>
      <Stack spacing={2}>
        {failure === 'BAD_PASSWORD' && <Alert severity="error">{t(MESSAGES.badCredentials)}</Alert>}
        {failure === 'RATE_LIMITED' && (
          <Alert severity="error">
            {t('Too many sign-in attempts. Please wait a few minutes and try again.')}
          </Alert>
        )}
        {failure === 'SSO_REQUIRED' && <SsoRequired data={errorBody(loginMutation.error)?.error_data} />}
        {failure !== null &&
          failure !== 'BAD_PASSWORD' &&
          failure !== 'RATE_LIMITED' &&
          failure !== 'SSO_REQUIRED' && <UnexpectedErrorAlert />}
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
