import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { emailSchema } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { FormTextField } from '../../../components/FormTextField';
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
    const parsed = emailSchema.safeParse(email);
    if (!parsed.success) {
      setInvalid(true);
      return;
    }
    setPending(true);
    try {
      const { provider } = await ssoLookup(parsed.data);
      if (provider) {
        markSsoStarted();
        window.location.assign(ssoStartUrl({ email: parsed.data }));
        return;
      }
    } catch {
      // The look-up failed: the password still signs in.
    }
    setPending(false);
    onPassword(parsed.data);
  };

  return (
    <Box component="form" noValidate onSubmit={(e) => void onSubmit(e)} aria-label={t('Sign in')}>
      <Stack spacing={2}>
        <Typography>{t('Enter your work e-mail address to sign in.')}</Typography>
        <FormTextField
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
        <Button type="submit" variant="contained" size="large" loading={pending}>
          {t('Continue')}
        </Button>
      </Stack>
    </Box>
  );
}

/** Why a sign-in through a provider came back refused (`?sso_error=`), as the sign-in page says it. */
export function SsoErrorAlert({ reason }: { reason: string }) {
  const { t } = useTranslation();
  return (
    <Alert severity="error">
      {reason === 'no_account'
        ? t('Your identity provider signed you in, but you have no account here. Ask your administrator.')
        : reason === 'unavailable'
          ? t('The identity provider could not be reached. Try again in a moment.')
          : t('Single sign-on did not complete. Try again, or ask your administrator.')}
    </Alert>
  );
}
