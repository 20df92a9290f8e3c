import type { AuditAction } from '@imaging-inbox/contract';
import type { AdminGroup, GroupMember, GroupType, Permission } from '@imaging-inbox/contract';
import { isPermission } from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import type { Caller, GroupAccess } from '../../policies/index.js';
import {
  membershipPermissions,
  requireAdministration,
  requireNotOwnGrant,
  requireReadableGroup,
  requireWithinOwnGrant,
} from '../../policies/index.js';
import type { AccountsRepository, GroupRow } from '../../repositories/accounts.repository.js';
import type { AccountUsersRepository } from './account-users.repository.js';
import type { AdminGroupRow, GroupAdminRepository, GroupMemberRow } from './group-admin.repository.js';
import type { RolesRepository } from './roles.repository.js';
import type { AuditService } from '../../audit/audit.service.js';
import { newUuid } from '../../security/tokens.js';

interface Deps {
  groups: GroupAdminRepository;
  accounts: AccountsRepository;
  roles: RolesRepository;
  accountUsers: AccountUsersRepository;
  audit: AuditService;
  now?: () => number;
}

const IN_USE_WHY = {
  senders: 'a registered DICOM sender delivers into this group',
  connections: 'a connection from another account delivers into this group',
  in_use: 'request links or sends still deliver into this group',
} as const;

/**
 * Groups of an account for its administrators: seen with group_view, changed with group_edit. A
 * group is deleted only while it holds no study; members are account members holding one of the
 * account's roles in the group, and a caller who is not an admin cannot change their own.
 */
export class GroupAdminService {
  constructor(private readonly deps: Deps) {}

  async list(caller: Caller, accountId: string): Promise<AdminGroup[]> {
    requireAdministration(caller, accountId, 'group', 'view');
    return (await this.deps.groups.listOfAccount(accountId)).map(presentAdminGroup);
  }

  /** group/get's group: the caller's own, or any of an account whose groups they administer. */
  async readable(caller: Caller, uuid: string): Promise<GroupAccess> {
    if ([...caller.groups.values()].some((g) => g.groupId === uuid)) {
      return requireReadableGroup(caller, uuid, undefined);
    }
    return requireReadableGroup(caller, uuid, await this.deps.groups.find(uuid));
  }

  async add(caller: Caller, accountId: string, name: string, type: GroupType): Promise<AdminGroup> {
    requireAdministration(caller, accountId, 'group', 'edit');
    if (await this.deps.groups.nameTaken(accountId, name)) throw nameTaken();
    const uuid = newUuid();
    await this.deps.accounts.createGroup({
      uuid,
      account_id: accountId,
      namespace_id: newUuid(),
      name,
      type,
      created: (this.deps.now ?? Date.now)(),
    });
    await this.record(caller, accountId, 'ADD', uuid, { name, type });
    return presentAdminGroup((await this.deps.groups.find(uuid))!);
  }

  async rename(caller: Caller, uuid: string, name: string): Promise<AdminGroup> {
    const group = await this.visible(caller, uuid);
    requireAdministration(caller, group.account_id, 'group', 'edit');
    if (await this.deps.groups.nameTaken(group.account_id, name, uuid)) throw nameTaken();
    await this.deps.groups.rename(group, name);
    await this.record(caller, group.account_id, 'EDIT', uuid, { before: group.name, after: name });
    return presentAdminGroup((await this.deps.groups.find(uuid))!);
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const group = await this.visible(caller, uuid);
    requireAdministration(caller, group.account_id, 'group', 'edit');
    const outcome = await this.deps.groups.remove(group);
    if (outcome === 'studies') throw new DomainError('NOT_EMPTY', 'studies', { studies: group.studies });
    if (outcome !== 'done') throw new DomainError('IN_USE', outcome, { why: IN_USE_WHY[outcome] });
    await this.record(caller, group.account_id, 'DELETE', uuid, { name: group.name, type: group.type });
  }

  async members(caller: Caller, uuid: string): Promise<GroupMember[]> {
    const group = await this.visible(caller, uuid);
    requireAdministration(caller, group.account_id, 'group', 'view');
    return (await this.deps.groups.members(uuid)).map(presentMember);
  }

  /** Adds an account member to the group with a role, or changes the role they hold there. */
  async setMember(caller: Caller, uuid: string, userId: string, roleId: string): Promise<GroupMember> {
    const group = await this.visible(caller, uuid);
    requireAdministration(caller, group.account_id, 'group', 'edit');
    requireNotOwnGrant(caller, group.account_id, userId === caller.user.uuid);
    if (!(await this.deps.accountUsers.find(group.account_id, userId))) {
      throw invalidField('user_id', 'not a user of this account');
    }
    const role = await this.deps.roles.find(roleId);
    if (!role || role.account_id !== group.account_id)
      throw invalidField('role_id', 'not a role of this account');
    // Nobody gives a role carrying more than they hold themselves (decision 0052).
    requireWithinOwnGrant(caller, group.account_id, parsePermissions(role.permissions));
    await this.deps.groups.setMember(uuid, userId, roleId);
    await this.record(caller, group.account_id, 'MEMBER_SET', uuid, { user_id: userId, role_id: roleId });
    return presentMember((await this.deps.groups.members(uuid)).find((m) => m.uuid === userId)!);
  }

  async removeMember(caller: Caller, uuid: string, userId: string): Promise<void> {
    const group = await this.visible(caller, uuid);
    requireAdministration(caller, group.account_id, 'group', 'edit');
    requireNotOwnGrant(caller, group.account_id, userId === caller.user.uuid);
    if (!(await this.deps.groups.removeMember(uuid, userId))) throw notFound('user');
    await this.record(caller, group.account_id, 'MEMBER_DELETE', uuid, { user_id: userId });
  }

  /** A group of an account the caller belongs to; any other is the NOT_FOUND of a made-up one. */
  private async visible(caller: Caller, uuid: string): Promise<AdminGroupRow> {
    const group = await this.deps.groups.find(uuid);
    if (!group || !caller.accounts.has(group.account_id)) throw notFound('group');
    return group;
  }

  private record(caller: Caller, accountId: string, action: AuditAction, groupId: string, detail: unknown) {
    return this.deps.audit.recordAdministration(
      caller,
      accountId,
      action,
      'GROUP',
      groupId,
      detail as Record<string, unknown>,
    );
  }
}

const nameTaken = () => invalidField('name', 'another group of the account has this name');

function parsePermissions(json: string): string[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String) : [];
}

export function presentAdminGroup(
  row: AdminGroupRow | (GroupRow & { members: number; studies: number }),
): AdminGroup {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    namespace_id: row.namespace_id,
    name: row.name,
    type: row.type,
    members: row.members,
    studies: row.studies,
  };
}

function presentMember(row: GroupMemberRow): GroupMember {
  const parse = (json: string): string[] => {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.map(String) : [];
  };
  const granted = membershipPermissions({
    permissions: parse(row.permissions),
    role_permissions: row.role_permissions === null ? null : parse(row.role_permissions),
  });
  return {
    uuid: row.uuid,
    name: row.name,
    email: row.email,
    role: row.role_id && row.role_name !== null ? { uuid: row.role_id, name: row.role_name } : null,
    permissions: [...granted].filter((p): p is Permission => isPermission(p)),
  };
}
