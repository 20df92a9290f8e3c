import { MESSAGES, PROFILE_FIELD_NAMES, type ProfileFields } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute, authedRoute } from '../api.js';
import { invalidField } from '../../domain/errors.js';
import { required } from '../params.js';

export function userRoutes(ctx: AppContext, app: FastifyInstance): void {
  apiRoute(app, 'user/password/lost', async ({ params, request }) => {
    const [email] = required(params, 'email');
    await ctx.services.passwordReset.requestReset(email, request.ip);
    return { message: MESSAGES.passwordLostSent };
  });

  apiRoute(app, 'user/password/reset', async ({ params, request }) => {
    const [token, password] = required(params, 'token', 'password');
    if (params['password_confirm'] !== undefined && params['password_confirm'] !== password) {
      throw invalidField('password_confirm', MESSAGES.passwordsDoNotMatch);
    }
    await ctx.services.passwordReset.reset(token, password, request.ip);
  });

  authedRoute(ctx, app, 'user/get', async ({ caller }) => ctx.services.profile.get(caller));

  // Ambra's user/set changes only the fields it is given; an empty value clears an optional field.
  authedRoute(ctx, app, 'user/set', async ({ caller, params }) => {
    const given: Partial<ProfileFields> = {};
    for (const field of PROFILE_FIELD_NAMES) {
      if (params[field] !== undefined) given[field] = params[field];
    }
    const profile = await ctx.services.profile.set(caller, given);
    return { message: MESSAGES.profileSaved, ...profile };
  });

  authedRoute(ctx, app, 'user/password/change', async ({ caller, params }) => {
    const [oldPassword, password] = required(params, 'old_password', 'password');
    if (params['password_confirm'] !== password) {
      throw invalidField('password_confirm', MESSAGES.passwordsDoNotMatch);
    }
    await ctx.services.profile.changePassword(caller, oldPassword, password);
    return { message: MESSAGES.passwordChanged };
  });

  authedRoute(ctx, app, 'user/namespace/list', async ({ caller, params }) => {
    const accountId = params['account_id']?.trim();
    const namespaces = [];
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
    return { namespaces };
  });
}
