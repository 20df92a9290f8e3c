import { Box, Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';
import { useInbox } from '../../inbox/inbox-context';
import { NotificationsTab } from './NotificationsTab';

const TABS = ['profile', 'notifications'] as const;
type TabName = (typeof TABS)[number];

/**
 * Account settings. The chosen tab lives in the address (?tab=notifications) so a reload or a link
 * from a notification mail opens it. Profile shows who is signed in; editing the profile and the
 * Password tab are not built yet.
 */
export function AccountSettingsPage() {
  const { t } = useTranslation();
  const { user } = useInbox();
  const [search, setSearch] = useSearchParams();
  const requested = search.get('tab');
  const tab: TabName = TABS.includes(requested as TabName) ? (requested as TabName) : 'profile';
  return (
    <PagePanel title={t('Account settings')}>
      <Tabs
        value={tab}
        onChange={(_e, value: TabName) => setSearch({ tab: value }, { replace: true })}
        sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
      >
        <Tab value="profile" label={t('Profile')} />
        <Tab value="notifications" label={t('Notifications')} />
      </Tabs>
      {tab === 'profile' && (
        <Box>
          <Typography>{user.name}</Typography>
          <Typography color="text.secondary">{user.email}</Typography>
        </Box>
      )}
      {tab === 'notifications' && <NotificationsTab />}
    </PagePanel>
  );
}
