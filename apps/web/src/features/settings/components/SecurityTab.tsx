import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  Chip,
  FormControlLabel,
  Stack,
  Switch,
  TextField,
  Typography,
} from '@mui/material';
import { REQUIRE_TWO_FACTOR_SETTING, type TotpEnrolment } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/Loading';
import { RecoveryCodesList } from '../../../components/RecoveryCodesList';
import { TotpEnrolmentCard } from '../../../components/TotpEnrolmentCard';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { useInbox } from '../../../session/inbox-context';
import {
  totpStatusQuery,
  useConfirmTotp,
  useDisableTotp,
  useRequireTwoFactor,
  useStartTotp,
} from '../api/two-factor';

/** The message of a refused code: wrong, or too many tries (counted with sign-in failures). */
function useCodeRefusal(): (error: unknown) => string {
  const { t } = useTranslation();
  return (error) => {
    const code = errorCode(error);
    if (code === 'RATE_LIMITED')
      return t('Too many sign-in attempts. Please wait a few minutes and try again.');
    if (code === 'INVALID_FIELD') return t('Wrong or expired code. Try the newest one.');
    return t('An unexpected error occurred');
  };
}

/**
 * Account settings → Security: two-factor sign-in codes (TOTP). Setting up shows a QR code, turns on
 * with a first right code and then shows the ten recovery codes once. An account admin can also
 * require codes of every member of the account.
 */
export function SecurityTab() {
  const { t } = useTranslation();
  const status = useQuery(totpStatusQuery());
  const [enrolment, setEnrolment] = useState<TotpEnrolment | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useStartTotp();
  const confirm = useConfirmTotp();
  const disable = useDisableTotp();
  const [otp, setOtp] = useState('');
  const codeRefusal = useCodeRefusal();

  if (status.isPending) return <Loading />;
  if (status.isError) return <UnexpectedErrorAlert />;
  const { enabled, required, recovery_codes_left: left } = status.data;

  const onConfirm = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    confirm.mutate(otp, {
      onSuccess: (answer) => {
        setRecoveryCodes(answer.recovery_codes);
        setEnrolment(null);
        setOtp('');
      },
    });
  };
  const onDisable = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    disable.mutate(otp, { onSuccess: () => setOtp('') });
  };

  return (
    <Stack spacing={3} sx={{ maxWidth: 640 }}>
      <Stack component="section" spacing={1.5} aria-labelledby="two-factor-title">
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography id="two-factor-title" variant="subtitle1" component="h2">
            {t('Two-factor sign-in')}
          </Typography>
          <Chip
            size="small"
            color={enabled ? 'success' : 'default'}
            label={enabled ? t('On') : t('Off')}
            data-testid="two-factor-state"
          />
        </Stack>
        <Typography variant="body2" color="text.secondary">
          {t('After your password, sign-in asks for a 6-digit code from an authenticator app on your phone.')}
        </Typography>
        {required === 1 && enabled === 0 && (
          <Alert severity="warning">{t('Your organisation requires two-factor sign-in.')}</Alert>
        )}
        {recoveryCodes && <RecoveryCodesList codes={recoveryCodes} />}
        {enabled === 1 && !recoveryCodes && (
          <Typography variant="body2">{t('{{count}} recovery codes left', { count: left })}</Typography>
        )}
        {enabled === 0 && !enrolment && (
          <Box>
            <Button
              variant="contained"
              loading={start.isPending}
              onClick={() => start.mutate(undefined, { onSuccess: (answer) => setEnrolment(answer) })}
            >
              {t('Set up two-factor sign-in')}
            </Button>
          </Box>
        )}
        {start.isError && <UnexpectedErrorAlert />}
        {enabled === 0 && enrolment && (
          <Box component="form" noValidate onSubmit={onConfirm} aria-label={t('Set up two-factor sign-in')}>
            <Stack spacing={2}>
              <TotpEnrolmentCard enrolment={enrolment} />
              <TextField
                label={t('Code from the app')}
                name="otp"
                autoComplete="one-time-code"
                required
                value={otp}
                onChange={(e) => setOtp(e.target.value)}
                error={confirm.isError}
                helperText={confirm.isError ? codeRefusal(confirm.error) : undefined}
                slotProps={{ htmlInput: { maxLength: 32, spellCheck: false } }}
                sx={{ maxWidth: 280 }}
              />
              <Box>
                <Button type="submit" variant="contained" loading={confirm.isPending}>
                  {t('Turn on')}
                </Button>
              </Box>
            </Stack>
          </Box>
        )}
        {enabled === 1 && required === 0 && (
          <Box component="form" noValidate onSubmit={onDisable} aria-label={t('Turn off two-factor sign-in')}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'flex-start', flexWrap: 'wrap', rowGap: 1 }}>
              <TextField
                size="small"
                label={t('Current code')}
                name="otp"
                autoComplete="one-time-code"
                value={otp}
                onChange={(e) => setOtp(e.target.value)}
                error={disable.isError}
                helperText={disable.isError ? codeRefusal(disable.error) : undefined}
                slotProps={{ htmlInput: { maxLength: 32, spellCheck: false } }}
              />
              <Button type="submit" variant="outlined" color="error" loading={disable.isPending}>
                {t('Turn off two-factor sign-in')}
              </Button>
            </Stack>
          </Box>
        )}
      </Stack>
      <RequireTwoFactorSwitch />
    </Stack>
  );
}

/** An account admin's switch: every member of the account signs in with a code. */
function RequireTwoFactorSwitch() {
  const { t } = useTranslation();
  const { user, account } = useInbox();
  const set = useRequireTwoFactor(account.uuid);
  const [wanted, setWanted] = useState(account.settings[REQUIRE_TWO_FACTOR_SETTING] === '1');
  // account/two_factor/set is the account admins' alone (the server refuses anyone else).
  if (user.admin !== 1) return null;
  return (
    <Stack component="section" spacing={1} aria-labelledby="require-two-factor-title">
      <Typography id="require-two-factor-title" variant="subtitle1" component="h2">
        {t('Account: {{name}}', { name: account.name })}
      </Typography>
      <FormControlLabel
        control={
          <Switch
            checked={wanted}
            disabled={set.isPending}
            onChange={(e) => {
              const next = e.target.checked;
              set.mutate(next, { onSuccess: () => setWanted(next) });
            }}
          />
        }
        label={t('Require two-factor sign-in for every member')}
      />
      <Typography variant="body2" color="text.secondary">
        {t('Members without a code set one up at their next sign-in.')}
      </Typography>
      {set.isError && <UnexpectedErrorAlert />}
    </Stack>
  );
}
