import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Button, Link, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { FormTextField } from '../../../components/FormTextField';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { usePasswordLost } from '../api/password-lost';
import { passwordLostSchema, type PasswordLostValues } from '../schemas';

/**
 * Password recovery. The confirmation is neutral on purpose: it never tells whether the address has
 * a login, and a 412 from the server is shown the same way.
 */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const lost = usePasswordLost();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<PasswordLostValues>({
    resolver: zodResolver(passwordLostSchema),
    defaultValues: { email: '' },
  });

  const sent = lost.isSuccess || (lost.isError && errorCode(lost.error) === 'NOT_FOUND');
  const onSubmit = handleSubmit((values) => lost.mutate(values));

  return (
    <Box component="form" noValidate onSubmit={onSubmit} aria-label={t('Password recovery')}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2">
          {t('Password recovery')}
        </Typography>
        {sent && <Alert severity="success">{t(MESSAGES.passwordLostSent)}</Alert>}
        {lost.isError && !sent && <UnexpectedErrorAlert />}
        <FormTextField
          label={t('Email')}
          type="email"
          autoComplete="email"
          autoFocus
          required
          error={!!errors.email}
          helperText={errors.email ? t(errors.email.message ?? '') : undefined}
          {...register('email')}
        />
        <Button type="submit" variant="contained" loading={lost.isPending}>
          {t('Send')}
        </Button>
        <Link component="button" type="button" onClick={onBack} sx={{ alignSelf: 'flex-start' }}>
          {t('Back to sign in')}
        </Link>
      </Stack>
    </Box>
  );
}
