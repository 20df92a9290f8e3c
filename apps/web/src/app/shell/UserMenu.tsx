import { useState } from 'react';
import { Link as RouterLink, useLocation } from 'react-router';
import { Divider, IconButton, ListSubheader, Menu, MenuItem } from '@mui/material';
import AccountCircle from '@mui/icons-material/AccountCircle';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { useTranslation } from '../../lib/i18n';
import { useLogout } from '../../features/auth';
import { useInbox } from '../../session/inbox-context';
import { buildMenu, type MenuLink } from './menu';
import { useInvitationItems } from './InvitationItems';

/**
 * Inbox, Account settings, Administration, Advanced UI, invitations from other accounts, Log out;
 * external links open in a new tab.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { user, account, permissions } = useInbox();
  const logout = useLogout();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  const invitations = useInvitationItems(close);
  const menu = buildMenu({
    pathname,
    isAdmin: user.admin === 1 || user.sysadmin === 1,
    accountSettings: account.settings,
    permissions,
  });

  const item = (link: MenuLink) =>
    link.external ? (
      // rel=opener: these pages are our own, and a new tab without an opener (target=_blank's
      // default) gets no copy of this tab's session storage, so it would open signed out.
      <MenuItem key={link.href} component="a" href={link.href} target="_blank" rel="opener" onClick={close}>
        {t(link.label)}
        <OpenInNew fontSize="inherit" sx={{ ml: 1 }} aria-label={t('opens in a new tab')} />
      </MenuItem>
    ) : (
      <MenuItem key={link.href} component={RouterLink} to={link.href} onClick={close}>
        {t(link.label)}
      </MenuItem>
    );

  return (
    <>
      <IconButton
        color="inherit"
        aria-label={t('User menu')}
        aria-haspopup="menu"
        aria-controls={anchor ? 'user-menu' : undefined}
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        <AccountCircle />
      </IconButton>
      <Menu id="user-menu" anchorEl={anchor} open={anchor !== null} onClose={close}>
        {menu.items.map(item)}
        {menu.administration.length > 0 && <ListSubheader>{t('Administration')}</ListSubheader>}
        {menu.administration.map(item)}
        {menu.advanced && item(menu.advanced)}
        {invitations}
        <Divider />
        <MenuItem
          onClick={() => {
            close();
            logout.mutate();
          }}
        >
          {t('Log out')}
        </MenuItem>
      </Menu>
    </>
  );
}
