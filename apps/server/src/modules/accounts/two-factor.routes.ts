import {
  accountTwoFactorSetRequest,
  accountUserRequest,
  noParams,
  totpConfirmRequest,
  totpDisableRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * Two-factor sign-in codes: the caller's own (Account settings → Security: user/totp/*), an
 * account's requirement of them (account/two_factor/set, its admins only), and an admin's reset of
 * a member's (account/user/totp/reset, a lost phone).
 */
export function twoFactorRoutes(ctx: AppContext, app: FastifyInstance): void {
  const twoFactor = ctx.services.twoFactor;

  authedRoute(ctx, app, 'user/totp/get', noParams, ({ caller }) => twoFactor.status(caller.user.uuid));

  authedRoute(ctx, app, 'user/totp/enrol', noParams, ({ caller }) => twoFactor.startEnrolment(caller.user));

  authedRoute(ctx, app, 'user/totp/confirm', totpConfirmRequest, async ({ caller, input }) => ({
    recovery_codes: await twoFactor.confirmEnrolment(caller.user, input.otp, caller.ip),
  }));

  authedRoute(ctx, app, 'user/totp/disable', totpDisableRequest, async ({ caller, input }) => {
    await twoFactor.disable(caller.user, input.otp, caller.ip);
  });

  // A member's lost phone: admin's rule says whom the caller may reset, then the codes go.
  authedRoute(ctx, app, 'account/user/totp/reset', accountUserRequest, async ({ caller, input }) => {
    const member = await ctx.services.accountUsers.twoFactorResettable(caller, input.uuid, input.user_id);
    return twoFactor.resetByAdmin(caller, member);
  });

  authedRoute(ctx, app, 'account/two_factor/set', accountTwoFactorSetRequest, async ({ caller, input }) => {
    await twoFactor.setRequired(caller, input.account_id, input.required);
  });
}
