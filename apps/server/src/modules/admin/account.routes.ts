import {
  accountListRequest,
  accountSetRequest,
  GROUP_TYPE_ORDER,
  groupListRequest,
  groupConfigSetRequest,
  MESSAGES,
  filterRows,
  pageOf,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import { DomainError, notFound } from '../../domain/errors.js';
import { permissionFlags, requireAccountMember } from '../../policies/index.js';
import type { Caller, GroupAccess } from '../../policies/index.js';

const accountOwner = (uuid: string) => `account:${uuid}`;

function presentGroup(group: GroupAccess) {
  return {
    uuid: group.groupId,
    name: group.name,
    namespace_id: group.namespaceId,
    type: group.type,
    account_id: group.accountId,
    permissions: permissionFlags(group.permissions),
  };
}

function groupsOf(caller: Caller, accountId?: string) {
  return [...caller.groups.values()]
    .filter((g) => !accountId || g.accountId === accountId)
    .sort((a, b) => GROUP_TYPE_ORDER[a.type] - GROUP_TYPE_ORDER[b.type] || a.name.localeCompare(b.name));
}

export function accountRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'account/list', accountListRequest, async ({ caller, input, filters }) => {
    const rows = await ctx.repos.accounts.accountsByIds([...caller.accounts.keys()]);
    const accounts = [];
    for (const row of rows) {
      // Only accounts with the inbox view enabled are offered to the inbox.
      if ((await ctx.repos.settings.get(accountOwner(row.uuid), 'enable_inbox_view')) !== '1') continue;
      accounts.push({ uuid: row.uuid, name: row.name, namespace_id: row.namespace_id, vanity: row.vanity });
    }
    if (!accounts.length) throw new DomainError('NO_SUITABLE_ACCOUNT', MESSAGES.noSuitableAccount);
    const { items, page } = pageOf(filterRows(accounts, filters), input['page.number'], input['page.rows']);
    return { accounts: items, page };
  });

  authedRoute(ctx, app, 'account/get', uuidRequest, async ({ caller, input }) => {
    const { uuid } = input;
    const access = requireAccountMember(caller, uuid, MESSAGES.accountNotFound);
    const row = await ctx.repos.accounts.findAccount(uuid);
    if (!row) throw notFound(MESSAGES.accountNotFound);
    return {
      uuid: row.uuid,
      name: row.name,
      namespace_id: row.namespace_id,
      vanity: row.vanity,
      share_code: row.share_code,
      permissions: permissionFlags(access.permissions),
      settings: await ctx.repos.settings.all(accountOwner(row.uuid)),
      // The AE title the account calls its PACS destinations as (decision 0054).
      calling_aet: await ctx.services.accountSettings.callingAe(row.uuid),
      brand_settings: {},
    };
  });

  // The account's admins change its settings: its default language (`settings.default_language`)
  // and the AE title it calls its PACS as (`settings.calling_aet`).
  authedRoute(ctx, app, 'account/set', accountSetRequest, async ({ caller, input }) => {
    const settings = ctx.services.accountSettings;
    // Both are checked before either is written: a refused call changes nothing.
    if (input.callingAet !== undefined) await settings.checkCallingAe(caller, input.uuid, input.callingAet);
    if (input.defaultLanguage !== undefined)
      await settings.setDefaultLanguage(caller, input.uuid, input.defaultLanguage);
    if (input.callingAet !== undefined) await settings.setCallingAe(caller, input.uuid, input.callingAet);
    return {
      settings: await ctx.repos.settings.all(accountOwner(input.uuid)),
      calling_aet: await settings.callingAe(input.uuid),
    };
  });

  authedRoute(ctx, app, 'group/list', groupListRequest, ({ caller, input, filters }) => {
    const accountId = input.account_id;
    if (accountId) requireAccountMember(caller, accountId, MESSAGES.accountNotFound);
    const groups = groupsOf(caller, accountId).map(presentGroup);
    const { items, page } = pageOf(filterRows(groups, filters), input['page.number'], input['page.rows']);
    return { groups: items, page };
  });

  // With the group's gatekeeper-workflow configuration (its nomination form, or its promote list);
  // its administrators read it without being in it (the Groups page).
  authedRoute(ctx, app, 'group/get', uuidRequest, async ({ caller, input }) => {
    const group = await ctx.services.groupAdmin.readable(caller, input.uuid);
    return { ...presentGroup(group), ...(await ctx.services.groupConfigs.describe(group)) };
  });

  // The account admin replaces a gatekeeper or cloud group's configuration.
  authedRoute(ctx, app, 'group/config/set', groupConfigSetRequest, async ({ caller, input }) => {
    return ctx.services.groupConfigs.set(caller, input.uuid, input.config);
  });
}
