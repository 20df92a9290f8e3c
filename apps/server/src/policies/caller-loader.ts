import type { AccountAccess, Caller, GroupAccess } from './access.js';
import { ALL_PERMISSION_SET, PERSONAL_NAMESPACE_PERMISSIONS, membershipPermissions } from './access.js';
import type { AccessRows, MembershipsRepository } from '../repositories/memberships.repository.js';
import type { UserRow } from '../repositories/users.repository.js';

/**
 * Builds the Caller for a signed-in user from their memberships, once per request and in one
 * statement: what each group grants (its role's permissions as they are now, read on every
 * request, so a role or membership change applies at the next call in every process), every
 * permission in every group of an account they administer, and the personal 'Shared with me'
 * namespace of studies shared with them.
 */
export class AccessService {
  constructor(private readonly memberships: MembershipsRepository) {}

  /**
   * `read` is the access already being read for the user (`readForSession`), or else it is read
   * now.
   */
  async load(user: UserRow, sidHash: string, ip: string, read?: Promise<AccessRows>): Promise<Caller> {
    const {
      accounts: accountRows,
      groups: groupRows,
      personal: personalRows,
      administered,
    } = await (read ?? this.memberships.accessOf(user.uuid));
    const accounts = new Map<string, AccountAccess>();
    for (const row of accountRows) {
      const admin = row.role === 'admin';
      accounts.set(row.account_id, {
        accountId: row.account_id,
        admin,
        permissions: admin ? ALL_PERMISSION_SET : membershipPermissions(row),
        roleId: row.role_id,
      });
    }
    const groups = new Map<string, GroupAccess>();
    for (const row of groupRows) {
      groups.set(row.namespace_id, {
        groupId: row.group_id,
        accountId: row.account_id,
        namespaceId: row.namespace_id,
        name: row.name,
        type: row.type,
        permissions: membershipPermissions(row),
        roleId: row.role_id,
      });
    }
    // Studies shared with the user personally: a cloud group of its own, seen by nobody else.
    for (const row of personalRows) {
      if (!accounts.has(row.account_id)) continue;
      groups.set(row.id, {
        groupId: row.id,
        accountId: row.account_id,
        namespaceId: row.id,
        name: row.name,
        type: 'CLOUD',
        permissions: PERSONAL_NAMESPACE_PERMISSIONS,
      });
    }
    // An account admin sees every group of the account with every permission.
    for (const group of administered) {
      if (!accounts.get(group.account_id)?.admin) continue;
      groups.set(group.namespace_id, {
        groupId: group.group_id,
        accountId: group.account_id,
        namespaceId: group.namespace_id,
        name: group.name,
        type: group.type,
        permissions: ALL_PERMISSION_SET,
      });
    }
    return { user, sidHash, ip, accounts, groups };
  }

  /**
   * Starts reading the access of a session's user before the session is judged, so that both
   * reads share one round trip to the database. Give the result to `load` once the session is
   * found valid; otherwise it is dropped.
   */
  readForSession(sidHash: string): Promise<AccessRows> {
    const read = this.memberships.accessOfSession(sidHash);
    read.catch(() => {}); // A failure surfaces in `load`; unawaited (invalid session), it is moot.
    return read;
  }
}
