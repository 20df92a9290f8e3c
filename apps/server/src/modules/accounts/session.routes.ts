import { loginRequest, noParams, sessionPermissionsRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute, authedRoute, sidOf } from '../../http/api.js';
import { DomainError } from '../../domain/errors.js';
import { grantedIn, permissionFlags } from '../../policies/index.js';

export function sessionRoutes(ctx: AppContext, app: FastifyInstance): void {
  apiRoute(app, 'session/login', loginRequest, async ({ input, request }) => {
    const { sid, user, recoveryCodes } = await ctx.services.sessions.login(
      input.login,
      input.password,
      request.ip,
      input.otp,
    );
    return {
      sid,
      uuid: user.uuid,
      name: user.name,
      pin_required: 0,
      privacy: null,
      indicator: null,
      terms: null,
      training_todo: 0,
      is_proxy: 0,
      ...(recoveryCodes ? { recovery_codes: recoveryCodes } : {}),
    };
  });

  authedRoute(ctx, app, 'session/user', noParams, async ({ caller }) => {
    const session = await ctx.repos.sessions.find(caller.sidHash);
    const primary = [...caller.accounts.values()][0];
    const account = primary ? await ctx.repos.accounts.findAccount(primary.accountId) : undefined;
    return {
      uuid: caller.user.uuid,
      name: caller.user.name,
      first: caller.user.first_name,
      last: caller.user.last_name,
      email: caller.user.email,
      account_id: account?.uuid ?? null,
      namespace_id: account?.namespace_id ?? null,
      ui_json: caller.user.ui_json,
      time_zone: caller.user.time_zone,
      session_expire: new Date(session?.expires ?? Date.now()).toISOString(),
      sysadmin: caller.user.sysadmin ? 1 : 0,
      support: caller.user.support ? 1 : 0,
      admin: primary?.admin ? 1 : 0,
    };
  });

  authedRoute(ctx, app, 'session/permissions', sessionPermissionsRequest, async ({ caller, input }) => {
    const { namespaceId } = input;
    if (!namespaceId) {
      const primary = [...caller.accounts.values()][0];
      return permissionFlags(primary?.permissions ?? new Set());
    }
    const accounts = caller.groups.has(namespaceId)
      ? []
      : await ctx.repos.accounts.accountsByIds([...caller.accounts.keys()]);
    const granted = grantedIn(caller, namespaceId, accounts);
    if (granted) return permissionFlags(granted);
    throw new DomainError('NOT_MEMBER', 'You are not a member of this namespace');
  });

  // A session signed in through a provider also answers the provider's end-session URL (when it
  // offers one), where the web app sends the browser so the provider's session ends too.
  authedRoute(ctx, app, 'session/logout', noParams, async ({ caller, request }) => {
    const logoutUrl = await ctx.services.ssoSignIn.endSession(caller.sidHash);
    await ctx.services.sessions.logout(caller.sidHash, caller.user.uuid, request.ip);
    return logoutUrl ? { logout_url: logoutUrl } : {};
  });

  // ttl answers EXPIRED (412) rather than 401, so a polling client can log out cleanly.
  // The sid is the only parameter, read as every call reads it (header, body or query).
  apiRoute(app, 'session/ttl', noParams, async ({ params, request }) => {
    const sid = sidOf(request, params);
    if (!sid) throw new DomainError('EXPIRED');
    return { ttl: await ctx.services.sessions.ttlSeconds(sid) };
  });
}
