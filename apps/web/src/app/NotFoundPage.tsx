import { Link as RouterLink } from 'react-router';
import { Button, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../lib/i18n';
import { CenteredCard } from '../components/CenteredCard';

/** Any unknown path: the fixed not-found message (SPEC.md section 2). */
export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <CenteredCard title={t('Page not found')}>
      <Stack spacing={3}>
        <Typography>{t(MESSAGES.notFoundPage)}</Typography>
        <Button component={RouterLink} to="/" variant="contained" sx={{ alignSelf: 'flex-start' }}>
          {t('Go back')}
        </Button>
      </Stack>
    </CenteredCard>
  );
}
