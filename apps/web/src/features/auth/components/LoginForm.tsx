import { useState, type FormEvent } from 'react';
import { MESSAGES, type TotpEnrolment } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import {
  AlertActionLink,
  Column,
  Field,
  LinkButton,
  Notice,
  PrimaryButton,
  Text,
} from '../../../components/plain/kit';
import { errorBody, errorCode } from '../../../lib/api-error';
import { useLogin } from '../api/login';
import { useSignInNavigation } from '../sign-in-navigation';
import { loginErrors, type LoginValues } from '../login-rules';
import { markSsoStarted, ssoStartUrl } from '../api/sso';
import { UnexpectedNotice } from './UnexpectedNotice';
import { SignInRecoveryCodes, SignInTotpEnrolment } from './TwoFactorParts';

/** SSO_REQUIRED: the account signs in through its provider; the button goes there. */
function SsoRequired({ data }: { data: unknown }) {
  const { t } = useTranslation();
  const { account_id: accountId, provider } = (data ?? {}) as { account_id?: string; provider?: string };
  return (
    <Notice
      severity="info"
      action={
        accountId ? (
          <AlertActionLink href={ssoStartUrl({ accountId })} onClick={() => markSsoStarted()}>
            {t('Sign in with {{provider}}', { provider: provider ?? '' })}
          </AlertActionLink>
        ) : undefined
      }
    >
      {t('Your organisation signs in with single sign-on ({{provider}}), not with a password here.', {
        provider: provider ?? '',
      })}
    </Notice>
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
      <Column>
        <Notice severity="success">{t('Two-factor sign-in is on.')}</Notice>
        <SignInRecoveryCodes codes={recoveryCodes} />
        <PrimaryButton large={false} onClick={() => leave('/group/list')}>
          {t('Continue')}
        </PrimaryButton>
      </Column>
    );
  }
  if (codeStep) {
    return (
      <form noValidate onSubmit={onSubmit} aria-label={t('Two-factor sign-in')}>
        <Column>
          {failure === 'BAD_OTP' && (
            <Notice severity="error">{t('Wrong or expired code. Try the newest one.')}</Notice>
          )}
          {failure === 'RATE_LIMITED' && (
            <Notice severity="error">
              {t('Too many sign-in attempts. Please wait a few minutes and try again.')}
            </Notice>
          )}
          {failure !== null && !due && failure !== 'BAD_OTP' && failure !== 'RATE_LIMITED' && (
            <UnexpectedNotice />
          )}
          {codeStep.enrolment ? (
            <>
              <Text>{t('Your organisation requires a code from your phone at each sign-in.')}</Text>
              <SignInTotpEnrolment enrolment={codeStep.enrolment} />
            </>
          ) : (
            <Text>{t('Enter the 6-digit code from your authenticator app, or a recovery code.')}</Text>
          )}
          <Field
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
          <PrimaryButton type="submit" loading={loginMutation.isPending}>
            {t('Verify')}
          </PrimaryButton>
          <LinkButton
            onClick={() => {
              setCodeStep(null);
              setLeftError(loginMutation.error);
              setOtp('');
              setValues((v) => ({ ...v, password: '' }));
            }}
          >
            {t('Back')}
          </LinkButton>
        </Column>
      </form>
    );
  }

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('Sign in')}>
      <Column>
        {failure === 'BAD_PASSWORD' && <Notice severity="error">{t(MESSAGES.badCredentials)}</Notice>}
        {failure === 'RATE_LIMITED' && (
          <Notice severity="error">
            {t('Too many sign-in attempts. Please wait a few minutes and try again.')}
          </Notice>
        )}
        {failure === 'SSO_REQUIRED' && <SsoRequired data={errorBody(loginMutation.error)?.error_data} />}
        {failure !== null &&
          failure !== 'BAD_PASSWORD' &&
          failure !== 'RATE_LIMITED' &&
          failure !== 'SSO_REQUIRED' && <UnexpectedNotice />}
        <Field label={t('Username')} autoComplete="username" autoFocus required {...field('login')} />
        <Field
          label={t('Password')}
          type="password"
          autoComplete="current-password"
          required
          {...field('password')}
        />
        <PrimaryButton type="submit" loading={loginMutation.isPending}>
          {t('Sign in')}
        </PrimaryButton>
        <LinkButton onClick={onForgotPassword}>{t('Forgot password?')}</LinkButton>
      </Column>
    </form>
  );
}
