import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';
import { useInbox } from '../../inbox/inbox-context';

/** Account settings (Profile, Password, Notifications tabs) arrive with the settings feature. */
export function AccountSettingsPage() {
  const { t } = useTranslation();
  const { user } = useInbox();
  return (
    <PagePanel title={t('Account settings')}>
      <Typography>{user.name}</Typography>
      <Typography color="text.secondary">{user.email}</Typography>
    </PagePanel>
  );
}
