import { Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from '../lib/i18n';

/** Full-area spinner with a text label, for session validation and first loads. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation();
  const text = label ?? t('Loading');
  return (
    <Box
      role="status"
      aria-live="polite"
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, py: 8 }}
    >
      <CircularProgress aria-hidden />
      <Typography color="text.secondary">{text}</Typography>
    </Box>
  );
}
