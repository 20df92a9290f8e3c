import { describe, expect, it } from 'vitest';
import { permissionFlags } from '../../test/factories';
import { buildMenu } from './menu';

const base = {
  pathname: '/group/g/Inbox',
  isAdmin: false,
  accountSettings: {},
  permissions: permissionFlags(),
};

describe('buildMenu', () => {
  it('gives a non-admin Account settings only on the inbox', () => {
    expect(buildMenu(base)).toEqual({
      items: [{ label: 'Account settings', href: '/account-settings', external: false }],
      administration: [],
      advanced: null,
    });
  });
  it('shows Inbox away from the inbox and hides the current page', () => {
    expect(buildMenu({ ...base, pathname: '/account-settings' }).items.map((i) => i.label)).toEqual([
      'Inbox',
    ]);
  });
  it('gives admins the administration links their permissions allow', () => {
    const menu = buildMenu({
      ...base,
      isAdmin: true,
      permissions: permissionFlags(['group_view', 'route_edit']),
    });
    // Destinations and Single sign-on need no permission beyond being the account's admin.
    expect(menu.administration.map((l) => l.label)).toEqual([
      'Groups',
      'Routing Rules',
      'Destinations',
      'Single sign-on',
    ]);
    expect(menu.administration.every((l) => l.external)).toBe(true);
  });
  it('gives holders of audit_view the Audit Log', () => {
    const audit = (granted: string[]) =>
      buildMenu({ ...base, isAdmin: true, permissions: permissionFlags(granted) }).administration.find(
        (l) => l.label === 'Audit Log',
      );
    expect(audit(['audit_view'])).toEqual({
      label: 'Audit Log',
      href: '/organization/audit.html',
      external: true,
    });
    expect(audit(['group_view'])).toBeUndefined();
  });
  it('gives Labels to admins holding label_edit', () => {
    const menu = buildMenu({ ...base, isAdmin: true, permissions: permissionFlags(['label_edit']) });
    expect(menu.administration.find((l) => l.label === 'Labels')).toEqual({
      label: 'Labels',
      href: '/organization/labels.html',
      external: true,
    });
  });
  it('hides Administration with hide_administration_tab', () => {
    const menu = buildMenu({ ...base, isAdmin: true, accountSettings: { hide_administration_tab: '1' } });
    expect(menu.administration).toEqual([]);
  });
  it('shows Advanced UI to admins when switching modes is allowed', () => {
    const settings = { inbox_allow_switch_between_modes: '1' };
    expect(buildMenu({ ...base, isAdmin: true, accountSettings: settings }).advanced).toEqual({
      label: 'Advanced UI',
      href: '/worklist',
      external: true,
    });
    expect(buildMenu({ ...base, accountSettings: settings }).advanced).toBeNull();
    expect(buildMenu({ ...base, isAdmin: true }).advanced).toBeNull();
  });
});
