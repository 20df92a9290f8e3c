import type { AuditAction } from '@imaging-inbox/contract';
import type { Permission, Role, RoleAddRequest, RoleSetRequest } from '@imaging-inbox/contract';
import { isPermission } from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import {
  holdsRole,
  requireAdministration,
  requireNotOwnGrant,
  requireWithinOwnGrant,
} from '../../policies/index.js';
import type { RoleRow, RolesRepository } from './roles.repository.js';
import { isUniqueViolation } from '../../repositories/unique-violation.js';
import type { AuditService } from '../../audit/audit.service.js';
import { newUuid } from '../../security/tokens.js';
import { givenFields, ifGiven } from '../../domain/given-fields.js';

interface Deps {
  roles: RolesRepository;
  audit: AuditService;
  now?: () => number;
}

const nameTaken = () => invalidField('name', 'another role of the account has this name');

/**
 * Roles of an account (role/*): seen with role_view, changed with role_edit. A change reaches its
 * holders at their next call, because the access policy reads a membership's role on each request.
 * A role still held cannot be deleted (IN_USE), a caller who is not an admin cannot change a
 * role they hold, and nobody makes or changes a role to carry, or changes one that carries, a
 * permission they do not hold themselves (decision 0052).
 */
export class RoleService {
  constructor(private readonly deps: Deps) {}

  async list(caller: Caller, accountId: string): Promise<Role[]> {
    requireAdministration(caller, accountId, 'role', 'view');
    return (await this.deps.roles.list(accountId)).map(presentRole);
  }

  async get(caller: Caller, uuid: string): Promise<Role> {
    const row = await this.visible(caller, uuid);
    requireAdministration(caller, row.account_id, 'role', 'view');
    return presentRole(row);
  }

  async add(caller: Caller, input: RoleAddRequest): Promise<Role> {
    requireAdministration(caller, input.account_id, 'role', 'edit');
    requireWithinOwnGrant(caller, input.account_id, input.permissions);
    const uuid = newUuid();
    try {
      await this.deps.roles.add({
        uuid,
        account_id: input.account_id,
        name: input.name,
        permissions: JSON.stringify(input.permissions),
        created: (this.deps.now ?? Date.now)(),
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    await this.record(caller, input.account_id, 'ADD', uuid, {
      name: input.name,
      permissions: input.permissions,
    });
    return presentRole((await this.deps.roles.find(uuid))!);
  }

  async set(caller: Caller, input: RoleSetRequest): Promise<Role> {
    const before = await this.visible(caller, input.uuid);
    requireAdministration(caller, before.account_id, 'role', 'edit');
    requireNotOwnGrant(caller, before.account_id, holdsRole(caller, before.uuid));
    // A role above the caller's own is not theirs to change at all, nor to raise above it.
    requireWithinOwnGrant(caller, before.account_id, [
      ...parsePermissions(before.permissions),
      ...(input.permissions ?? []),
    ]);
    try {
      await this.deps.roles.set(
        input.uuid,
        givenFields({ name: input.name, permissions: ifGiven(input.permissions, JSON.stringify) }),
      );
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken();
      throw error;
    }
    const after = (await this.deps.roles.find(input.uuid))!;
    await this.record(caller, before.account_id, 'EDIT', before.uuid, {
      before: { name: before.name, permissions: parsePermissions(before.permissions) },
      after: { name: after.name, permissions: parsePermissions(after.permissions) },
    });
    return presentRole(after);
  }

  async remove(caller: Caller, uuid: string): Promise<void> {
    const row = await this.visible(caller, uuid);
    requireAdministration(caller, row.account_id, 'role', 'edit');
    requireNotOwnGrant(caller, row.account_id, holdsRole(caller, row.uuid));
    if ((await this.deps.roles.remove(uuid)) === 'held') {
      throw new DomainError('IN_USE', 'role', { holders: row.holders });
    }
    await this.record(caller, row.account_id, 'DELETE', uuid, { name: row.name });
  }

  /** A role of an account the caller belongs to; any other is the NOT_FOUND of a made-up one. */
  private async visible(caller: Caller, uuid: string): Promise<RoleRow> {
    const row = await this.deps.roles.find(uuid);
    if (!row || !caller.accounts.has(row.account_id)) throw notFound('role');
    return row;
  }

  private record(caller: Caller, accountId: string, action: AuditAction, roleId: string, detail: unknown) {
    return this.deps.audit.recordAdministration(
      caller,
      accountId,
      action,
      'ROLE',
      roleId,
      detail as Record<string, unknown>,
    );
  }
}

function parsePermissions(json: string): Permission[] {
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? value.map(String).filter(isPermission) : [];
}

export function presentRole(row: RoleRow): Role {
  return {
    uuid: row.uuid,
    account_id: row.account_id,
    name: row.name,
    permissions: parsePermissions(row.permissions),
    holders: row.holders,
  };
}
