import {
  MESSAGES,
  namespaceListRequest,
  noParams,
  filterRows,
  pageOf,
  passwordChangeRequest,
  passwordLostRequest,
  passwordResetRequest,
  userSetRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { NamespaceSummary } from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { apiRoute, authedRoute } from '../../http/api.js';
import { DomainError, invalidField } from '../../domain/errors.js';

export function userRoutes(ctx: AppContext, app: FastifyInstance): void {
  apiRoute(app, 'user/password/lost', passwordLostRequest, async ({ input, request }) => {
    await ctx.services.passwordReset.requestReset(input.email, request.ip);
    return { message: MESSAGES.passwordLostSent };
  });

  apiRoute(app, 'user/password/reset', passwordResetRequest, async ({ input, request }) => {
    const { token, password } = input;
    if (input.password_confirm !== undefined && input.password_confirm !== password) {
      throw invalidField('password_confirm', MESSAGES.passwordsDoNotMatch);
    }
    await ctx.services.passwordReset.reset(token, password, request.ip);
  });

  authedRoute(ctx, app, 'user/get', noParams, async ({ caller }) => ctx.services.profile.get(caller));

  // Ambra's user/set changes only the fields it is given; an empty value clears an optional field.
  authedRoute(ctx, app, 'user/set', userSetRequest, async ({ caller, input }) => {
    if (Object.keys(input).length === 0) throw new DomainError('USER_INFO_NOT_SET', 'no profile field given');
    const profile = await ctx.services.profile.set(caller, input);
    return { message: MESSAGES.profileSaved, ...profile };
  });

  authedRoute(ctx, app, 'user/password/change', passwordChangeRequest, async ({ caller, input }) => {
    const { old_password: oldPassword, password } = input;
    if (input.password_confirm !== password) {
      throw invalidField('password_confirm', MESSAGES.passwordsDoNotMatch);
    }
    await ctx.services.profile.changePassword(caller, oldPassword, password);
    return { message: MESSAGES.passwordChanged };
  });

  authedRoute(ctx, app, 'user/namespace/list', namespaceListRequest, async ({ caller, input, filters }) => {
    const accountId = input.account_id;
    const namespaces: NamespaceSummary[] = [];
    for (const account of caller.accounts.values()) {
      if (accountId && account.accountId !== accountId) continue;
      const row = await ctx.repos.accounts.findAccount(account.accountId);
      if (row)
        namespaces.push({
          namespace_id: row.namespace_id,
          name: row.name,
          type: 'ACCOUNT',
          account_id: row.uuid,
        });
    }
    for (const group of caller.groups.values()) {
      if (accountId && group.accountId !== accountId) continue;
      namespaces.push({
        namespace_id: group.namespaceId,
        name: group.name,
        type: group.type,
        account_id: group.accountId,
      });
    }
    const { items, page } = pageOf(filterRows(namespaces, filters), input['page.number'], input['page.rows']);
    return { namespaces: items, page };
  });
}
