import { Button, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../lib/i18n';
import { CenteredCard } from '../components/CenteredCard';
import { useLogout } from '../features/auth';
import { getSid } from '../lib/storage';

/** /404: the account has no inbox view (enable_inbox_view is not '1'). */
export function InboxUnavailablePage() {
  const { t } = useTranslation();
  const logout = useLogout();
  return (
    <CenteredCard title={t('Inbox not available')}>
      <Stack spacing={3}>
        <Typography>{t(MESSAGES.noSuitableAccount)}</Typography>
        <Typography color="text.secondary">{t(MESSAGES.notFoundPage)}</Typography>
        {getSid() !== null && (
          <Button
            variant="contained"
            onClick={() => logout.mutate()}
            loading={logout.isPending}
            sx={{ alignSelf: 'flex-start' }}
          >
            {t('Log out')}
          </Button>
        )}
      </Stack>
    </CenteredCard>
  );
}
