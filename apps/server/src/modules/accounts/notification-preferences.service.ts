import type { NotificationPreference } from '@imaging-inbox/contract';
import { DomainError, notFound, notPermitted } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import {
  hasAccountPermission,
  hasGroupPermission,
  isNamespaceMember,
  requireKnownNamespace,
} from '../../policies/index.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { MembershipsRepository } from '../../repositories/memberships.repository.js';
import type { UserEventFlags, UserEventsRepository } from '../../repositories/user-events.repository.js';
import type { UsersRepository } from '../../repositories/users.repository.js';
import type { AccessService } from '../../policies/index.js';
import { callerEvent, type AuditService } from '../../audit/audit.service.js';

export interface NotificationPreferencesDeps {
  userEvents: UserEventsRepository;
  accounts: AccountsRepository;
  memberships: MembershipsRepository;
  users: UsersRepository;
  access: AccessService;
  audit: AuditService;
  now?: () => number;
}

interface NamespaceRow {
  id: string;
  account_id: string;
  kind: string;
  name: string;
}

/**
 * Which mails a user gets per namespace (SPEC "Notification preferences": shared with me,
 * harvested from gateway, nominated to gatekeeper groups). A user reads and sets their own flags in namespaces they belong to,
 * setting needs user_modify_notifications there; an account admin (or account_user_edit) may set
 * another member's flags. Refusals: NOT_FOUND (no such namespace), NOT_MEMBER (the user does not
 * belong to it), NOT_PERMITTED (may not set these flags).
 */
export class NotificationPreferencesService {
  private readonly now: () => number;
  constructor(private readonly deps: NotificationPreferencesDeps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * Every namespace the caller belongs to (account namespaces first), with its flags. The personal
   * 'Shared with me' group is left out: mails about studies shared with the user personally are
   * chosen on the account, which exists before anything was shared with them.
   */
  async list(caller: Caller): Promise<NotificationPreference[]> {
    const [flags, personal] = await Promise.all([
      this.deps.userEvents.flagsOfUser(caller.user.uuid),
      this.deps.memberships.personalNamespaces(caller.user.uuid),
    ]);
    const personalIds = new Set(personal.map((p) => p.id));
    const namespaces: NamespaceRow[] = [];
    for (const account of caller.accounts.values()) {
      const row = await this.deps.accounts.findAccount(account.accountId);
      if (row)
        namespaces.push({ id: row.namespace_id, account_id: row.uuid, kind: 'ACCOUNT', name: row.name });
    }
    const groups = [...caller.groups.values()]
      .filter((g) => !personalIds.has(g.namespaceId))
      .sort((a, b) => a.name.localeCompare(b.name));
    for (const group of groups)
      namespaces.push({
        id: group.namespaceId,
        account_id: group.accountId,
        kind: group.type,
        name: group.name,
      });
    return namespaces.map((ns) => present(ns, flags.get(ns.id), canModify(caller, ns)));
  }

  async get(caller: Caller, namespaceId: string, userId?: string): Promise<NotificationPreference> {
    const ns = await this.namespace(namespaceId);
    const target = await this.targetOf(caller, ns, userId, 'account_user_view');
    const flags = await this.deps.userEvents.flags(target.user.uuid, ns.id);
    return present(ns, flags, canModify(target, ns));
  }

  async set(
    caller: Caller,
    namespaceId: string,
    changes: Partial<UserEventFlags>,
    userId?: string,
  ): Promise<NotificationPreference> {
    const ns = await this.namespace(namespaceId);
    const target = await this.targetOf(caller, ns, userId, 'account_user_edit');
    // Setting one's own flags needs the namespace's permission; an admin setting someone else's
    // was already checked by targetOf.
    if (target === caller && !canModify(caller, ns)) throw notPermitted('user_modify_notifications');
    const before = await this.deps.userEvents.flags(target.user.uuid, ns.id);
    const after = { ...before, ...changes };
    await this.deps.userEvents.save(target.user.uuid, ns.id, after, this.now());
    await this.deps.audit.record(
      callerEvent(
        caller,
        ns.account_id,
        'EDIT',
        { type: 'user_event', id: target.user.uuid },
        {
          namespace_id: ns.id,
          before,
          after,
        },
      ),
    );
    return present(ns, after, canModify(target, ns));
  }

  private async namespace(namespaceId: string): Promise<NamespaceRow> {
    const ns = await this.deps.accounts.namespace(namespaceId);
    if (!ns) throw notFound('namespace');
    return ns;
  }

  /**
   * The user whose flags are meant: the caller, or (with user_id) another member of the
   * namespace's account, which needs admin rights there. The user must belong to the namespace.
   */
  private async targetOf(
    caller: Caller,
    ns: NamespaceRow,
    userId: string | undefined,
    adminPermission: 'account_user_view' | 'account_user_edit',
  ): Promise<Caller> {
    requireKnownNamespace(caller, ns, adminPermission);
    let target = caller;
    if (userId && userId !== caller.user.uuid) {
      if (!hasAccountPermission(caller, ns.account_id, adminPermission)) throw notPermitted('user_id');
      const user = await this.deps.users.findByUuid(userId);
      if (!user) throw notFound('user');
      target = await this.deps.access.load(user, '', caller.ip);
    }
    if (!isNamespaceMember(target, ns)) throw new DomainError('NOT_MEMBER', 'namespace');
    return target;
  }
}

function canModify(caller: Caller, ns: NamespaceRow): boolean {
  return ns.kind === 'ACCOUNT'
    ? hasAccountPermission(caller, ns.account_id, 'user_modify_notifications')
    : hasGroupPermission(caller, ns.id, 'user_modify_notifications');
}

function present(
  ns: NamespaceRow,
  flags: UserEventFlags | undefined,
  modify: boolean,
): NotificationPreference {
  return {
    namespace_id: ns.id,
    name: ns.name,
    type: ns.kind,
    account_id: ns.account_id,
    event_share: flags?.event_share === 1 ? 1 : 0,
    event_harvest: flags?.event_harvest === 1 ? 1 : 0,
    event_nominate: flags?.event_nominate === 1 ? 1 : 0,
    can_modify: modify ? 1 : 0,
  };
}
