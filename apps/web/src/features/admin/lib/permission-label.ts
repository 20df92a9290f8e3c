import type { Permission } from '@imaging-inbox/contract';

/** A permission name as the role editor shows it: `study_share_email` → "Study share email". */
export function permissionLabel(permission: Permission): string {
  const words = permission.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
