import { useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n';
import { Column, Field, Notice, PrimaryButton, Text } from '../../../components/plain/kit';
import { markSsoStarted, ssoLookup, ssoStartUrl } from '../api/sso';

/**
 * Sign-in's first step when some account signs in through its provider: the e-mail alone. An
 * address whose account (or domain) has a provider goes to that provider's page; any other goes on
 * to the password (`onPassword`, with the address typed).
 */
export function SsoEmailStep({ onPassword }: { onPassword: (email: string) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [pending, setPending] = useState(false);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The contract's e-mail rule (zod) loads on the first submit, not with the page.
    const { validEmail } = await import('../email-rule');
    const address = validEmail(email);
    if (address === null) {
      setInvalid(true);
      return;
    }
    setPending(true);
    try {
      const { provider } = await ssoLookup(address);
      if (provider) {
        markSsoStarted();
        window.location.assign(ssoStartUrl({ email: address }));
        return;
      }
    } catch {
      // The look-up failed: the password still signs in.
    }
    setPending(false);
    onPassword(address);
  };

  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t('Sign in')}>
      <Column>
        <Text>{t('Enter your work e-mail address to sign in.')}</Text>
        <Field
          name="email"
          label={t('Email')}
          type="email"
          autoComplete="username"
          autoFocus
          required
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setInvalid(false);
          }}
          error={invalid}
          helperText={invalid ? t('Please enter a valid email') : undefined}
        />
        <PrimaryButton type="submit" loading={pending}>
          {t('Continue')}
        </PrimaryButton>
      </Column>
    </form>
  );
}

type Translate = ReturnType<typeof useTranslation>['t'];

/**
 * What the sign-in page says of a refusal code (`?sso_error=`, the server's `SSO_REFUSALS`), in the
 * page's language: the code is all that comes back, never the server's or the provider's words.
 */
export function ssoRefusalText(reason: string, t: Translate): string {
  switch (reason) {
    case 'no_account':
      return t('Your identity provider signed you in, but you have no account here. Ask your administrator.');
    case 'unavailable':
      return t('The identity provider could not be reached. Try again in a moment.');
    case 'provider_error':
      return t('Your identity provider did not sign you in: the sign-in was cancelled or refused there.');
    case 'disabled':
      return t(
        'Single sign-on is turned off for your organisation, or your account here is suspended. Ask your administrator.',
      );
    case 'state':
      return t('The sign-in took too long or was finished in another browser. Start again here.');
    case 'rate_limited':
      return t('Too many sign-in attempts. Please wait a few minutes and try again.');
    default:
      return t('Single sign-on did not complete. Try again, or ask your administrator.');
  }
}

/** Why a sign-in through a provider came back refused (`?sso_error=`), as the sign-in page says it. */
export function SsoErrorAlert({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return <Notice severity="error">{ssoRefusalText(reason, t)}</Notice>;
}
