import { Alert, Box, Typography } from '@mui/material';
import { useTranslation } from '../lib/i18n';

/** The ten recovery codes, shown once: the server keeps only their hashes. */
export function RecoveryCodesList({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Box component="section" aria-labelledby="recovery-codes-title">
      <Typography id="recovery-codes-title" variant="subtitle1" component="h2">
        {t('Recovery codes')}
      </Typography>
      <Alert severity="warning" sx={{ my: 1 }}>
        {t(
          'Keep these codes somewhere safe. Each signs you in once without your phone; they are not shown again.',
        )}
      </Alert>
      <Box
        component="ol"
        data-testid="recovery-codes"
        sx={{ fontFamily: 'monospace', fontSize: 16, columns: 2, maxWidth: 360, pl: 4, my: 1 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
    </Box>
  );
}
