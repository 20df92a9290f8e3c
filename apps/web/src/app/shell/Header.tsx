import { Link as RouterLink } from 'react-router';
import { AppBar, Box, Toolbar, Typography } from '@mui/material';
import { useTranslation } from '../../lib/i18n';
import { useInbox } from '../../session/inbox-context';
import { UserMenu } from './UserMenu';

export function Header() {
  const { t } = useTranslation();
  const { user, account } = useInbox();
  return (
    <AppBar position="static" elevation={1} component="header">
      <Toolbar variant="dense" sx={{ gap: 2 }}>
        <Typography
          variant="h6"
          component={RouterLink}
          to="/group/list"
          sx={{ color: 'inherit', textDecoration: 'none' }}
        >
          {t('Imaging Inbox')}
        </Typography>
        {/* Softer than the user's name, still 4.5:1 on the bar's blue (WCAG 1.4.3). */}
        <Typography variant="body2" sx={{ opacity: 0.9 }}>
          {account.name}
        </Typography>
        <Box sx={{ flex: 1 }} />
        <Typography variant="body2" data-testid="user-name">
          {user.name}
        </Typography>
        <UserMenu />
      </Toolbar>
    </AppBar>
  );
}
