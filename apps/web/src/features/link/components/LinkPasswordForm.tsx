import { useState, type FormEvent } from 'react';
import { Alert, Box, Button, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { FormTextField } from '../../../components/FormTextField';
import { linkErrorMessage } from '../lib/link-messages';

interface Props {
  onUnlock: (password: string) => void;
  pending: boolean;
  errorCode: string | null;
}

/** Asks for the password the requester gave separately; the server counts wrong ones. */
export function LinkPasswordForm({ onUnlock, pending, errorCode }: Props) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [touched, setTouched] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (password) onUnlock(password);
  };
  return (
    <Box component="form" noValidate aria-label={t('Unlock upload link')} onSubmit={submit}>
      <Stack spacing={2}>
        {errorCode && <Alert severity="error">{t(linkErrorMessage(errorCode))}</Alert>}
        <FormTextField
          label={t('Password')}
          type="password"
          autoComplete="off"
          required
          autoFocus
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={touched && !password}
          helperText={touched && !password ? t(MESSAGES.passwordRequired) : undefined}
        />
        <Button type="submit" variant="contained" loading={pending}>
          {t('Continue')}
        </Button>
      </Stack>
    </Box>
  );
}
