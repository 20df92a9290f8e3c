import { Tab, Tabs, Typography } from '@mui/material';
import { useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n';
import { PagePanel } from '../../../components/PagePanel';
import { useInbox } from '../../../session/inbox-context';
import { NotificationsTab } from './NotificationsTab';
import { PasswordTab } from './PasswordTab';
import { ProfileTab } from './ProfileTab';
import { SecurityTab } from './SecurityTab';

const TABS = ['profile', 'password', 'security', 'notifications'] as const;
type TabName = (typeof TABS)[number];

/**
 * Account settings with tabs Profile, Password, Security and Notifications. The chosen tab lives in the
 * address (?tab=notifications) so a reload or a link from a notification mail opens it.
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
        <Tab value="password" label={t('Password')} />
        <Tab value="security" label={t('Security')} />
        <Tab value="notifications" label={t('Notifications')} />
      </Tabs>
      {tab === 'profile' && (
        <>
          <Typography color="text.secondary" sx={{ mb: 2 }}>
            {user.email}
          </Typography>
          <ProfileTab />
        </>
      )}
      {tab === 'password' && <PasswordTab />}
      {tab === 'security' && <SecurityTab />}
      {tab === 'notifications' && <NotificationsTab />}
    </PagePanel>
  );
}
