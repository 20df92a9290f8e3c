import { Box, Stack, Typography } from '@mui/material';
import type { TotpEnrolment } from '@imaging-inbox/contract';
import { useTranslation } from '../lib/i18n';

/**
 * What an authenticator app needs to add this user: the QR code (an SVG the server drew, shown as an
 * image so none of it runs as markup) and the same secret as text for a phone that cannot scan.
 */
export function TotpEnrolmentCard({ enrolment }: { enrolment: TotpEnrolment }) {
  const { t } = useTranslation();
  const secret = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
      <Box
        component="img"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
        alt={t('QR code to scan with your authenticator app')}
        sx={{ width: 176, height: 176, bgcolor: 'common.white', border: 1, borderColor: 'divider' }}
      />
      <Stack spacing={1} sx={{ maxWidth: 360 }}>
        <Typography variant="body2">
          {t(
            'Scan this code with an authenticator app (Microsoft Authenticator, Google Authenticator, FreeOTP…).',
          )}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('Or type this key in the app:')}
        </Typography>
        <Typography component="code" data-testid="totp-secret" sx={{ fontFamily: 'monospace', fontSize: 15 }}>
          {secret}
        </Typography>
      </Stack>
    </Stack>
  );
}
