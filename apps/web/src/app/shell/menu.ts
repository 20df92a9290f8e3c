import type { Permission, PermissionFlags } from '@imaging-inbox/contract';

export interface MenuLink {
  label: string;
  href: string;
  /** External pages open in a new tab. */
  external: boolean;
}

export interface MenuModel {
  items: MenuLink[];
  /** Administration links, empty when the Administration entry is hidden. */
  administration: MenuLink[];
  advanced: MenuLink | null;
}

/** Each link needs one of `anyOf`; an empty list: any account admin. */
const ADMIN_LINKS: { label: string; href: string; anyOf: Permission[] }[] = [
  { label: 'Groups', href: '/organization/groups.html', anyOf: ['group_view', 'group_edit'] },
  { label: 'Users', href: '/organization/users.html', anyOf: ['account_user_view', 'account_user_edit'] },
  { label: 'Routing Rules', href: '/organization/routing-rules.html', anyOf: ['route_view', 'route_edit'] },
  { label: 'Audit Log', href: '/organization/audit.html', anyOf: ['audit_view'] },
  { label: 'Destinations', href: '/organization/destinations.html', anyOf: [] },
  { label: 'Labels', href: '/organization/labels.html', anyOf: ['label_edit'] },
  {
    label: 'De-identification',
    href: '/organization/deidentification.html',
    anyOf: ['anonymization_view', 'anonymization_edit'],
  },
  // account/sso/get|set are the account admins' (the server's account-settings rule).
  { label: 'Single sign-on', href: '/organization/sso.html', anyOf: [] },
];

export interface MenuInput {
  pathname: string;
  isAdmin: boolean;
  accountSettings: Record<string, string>;
  permissions: Partial<PermissionFlags>;
}

/**
 * The user menu (SPEC.md section 2): Inbox, Account settings, Administration (admin only, hidden by
 * hide_administration_tab, each link gated by its permissions), Advanced UI (admin only, shown when
 * inbox_allow_switch_between_modes is on), Log out. The link to the page being shown is hidden.
 */
export function buildMenu(input: MenuInput): MenuModel {
  const items: MenuLink[] = [];
  const onInbox = input.pathname.startsWith('/group/');
  if (!onInbox) items.push({ label: 'Inbox', href: '/group/list', external: false });
  if (input.pathname !== '/account-settings') {
    items.push({ label: 'Account settings', href: '/account-settings', external: false });
  }
  const administration =
    input.isAdmin && input.accountSettings.hide_administration_tab !== '1'
      ? ADMIN_LINKS.filter((l) => !l.anyOf.length || l.anyOf.some((p) => input.permissions[p] === 1)).map(
          (l) => ({
            label: l.label,
            href: l.href,
            external: true,
          }),
        )
      : [];
  const advanced =
    input.isAdmin && input.accountSettings.inbox_allow_switch_between_modes === '1'
      ? { label: 'Advanced UI', href: '/worklist', external: true }
      : null;
  return { items, administration, advanced };
}
