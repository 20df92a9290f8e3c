import type { RoleListAnswer } from '@imaging-inbox/contract';
import {
  ALL_PERMISSIONS,
  filterRows,
  pageOf,
  roleAddRequest,
  roleDefaultPermissionsRequest,
  roleListRequest,
  roleRequest,
  roleSetRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import { requireAccountMember } from '../../policies/index.js';

/** Roles of an account (role/*): named permission sets held by account and group memberships. */
export function roleRoutes(ctx: AppContext, app: FastifyInstance): void {
  const roles = ctx.services.roles;

  authedRoute(
    ctx,
    app,
    'role/list',
    roleListRequest,
    async ({ caller, input, filters }): Promise<RoleListAnswer> => {
      const all = await roles.list(caller, input.account_id);
      const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
      return { roles: items, page };
    },
  );

  authedRoute(ctx, app, 'role/get', roleRequest, ({ caller, input }) => roles.get(caller, input.uuid));

  authedRoute(ctx, app, 'role/add', roleAddRequest, ({ caller, input }) => roles.add(caller, input));

  authedRoute(ctx, app, 'role/set', roleSetRequest, ({ caller, input }) => roles.set(caller, input));

  authedRoute(ctx, app, 'role/delete', roleRequest, async ({ caller, input }) => {
    await roles.remove(caller, input.uuid);
  });

  // Ambra's role/default/permissions: every permission a role may hold, with what a new role gets
  // (role/add without `permissions` grants none). `account_id`, if given, must be the caller's.
  authedRoute(ctx, app, 'role/default/permissions', roleDefaultPermissionsRequest, ({ caller, input }) => {
    if (input.account_id) requireAccountMember(caller, input.account_id);
    return { permissions: Object.fromEntries(ALL_PERMISSIONS.map((name) => [name, 0])) };
  });
}
