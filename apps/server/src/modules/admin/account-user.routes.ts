import {
  accountInvitationRequest,
  accountUserAddRequest,
  accountUserListRequest,
  accountUserRequest,
  accountUserSetRequest,
  filterRows,
  pageOf,
  pageRequest,
  userEnableRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/**
 * User administration of an account (see docs/api-v3.md): account/user/* and user/enable; and the
 * signed-in user's answer to invitations from other accounts (account/invitation/*, decision 0052).
 */
export function accountUserRoutes(ctx: AppContext, app: FastifyInstance): void {
  const users = ctx.services.accountUsers;

  authedRoute(ctx, app, 'account/user/list', accountUserListRequest, async ({ caller, input, filters }) => {
    return users.list(
      caller,
      input.uuid,
      {
        filter: input.filter,
        sort: input.sort_by,
        rows: input['page.rows'],
        number: input['page.number'],
      },
      filters,
    );
  });

  authedRoute(ctx, app, 'account/user/get', accountUserRequest, async ({ caller, input }) => {
    return users.get(caller, input.uuid, input.user_id);
  });

  authedRoute(ctx, app, 'account/user/add', accountUserAddRequest, async ({ caller, input }) => {
    return users.invite(caller, input.uuid, {
      email: input.email,
      name: input.name,
      role: input.role,
      roleId: input.role_id,
    });
  });

  authedRoute(ctx, app, 'account/user/set', accountUserSetRequest, async ({ caller, input }) => {
    return users.set(caller, input.uuid, input.user_id, {
      name: input.name,
      role: input.role,
      roleId: input.role_id,
    });
  });

  authedRoute(ctx, app, 'account/user/delete', accountUserRequest, async ({ caller, input }) => {
    await users.remove(caller, input.uuid, input.user_id);
  });

  authedRoute(ctx, app, 'user/enable', userEnableRequest, async ({ caller, input }) => {
    await users.enable(caller, input.uuid, input.disable !== 1);
  });

  authedRoute(ctx, app, 'account/invitation/list', pageRequest, async ({ caller, input, filters }) => {
    const all = await users.invitations(caller);
    const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
    return { invitations: items, page };
  });

  authedRoute(ctx, app, 'account/invitation/accept', accountInvitationRequest, async ({ caller, input }) => {
    await users.accept(caller, input.uuid);
  });

  authedRoute(ctx, app, 'account/invitation/decline', accountInvitationRequest, async ({ caller, input }) => {
    await users.decline(caller, input.uuid);
  });
}
