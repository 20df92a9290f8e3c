import type { AdminGroupListAnswer, GroupMemberListAnswer } from '@imaging-inbox/contract';
import {
  accountGroupListRequest,
  groupAddRequest,
  groupSetRequest,
  groupUserAddRequest,
  groupUserDeleteRequest,
  groupUserListRequest,
  filterRows,
  pageOf,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** Administration of an account's groups and their members (group_view / group_edit). */
export function groupAdminRoutes(ctx: AppContext, app: FastifyInstance): void {
  const groups = ctx.services.groupAdmin;

  authedRoute(
    ctx,
    app,
    'account/group/list',
    accountGroupListRequest,
    async ({ caller, input, filters }): Promise<AdminGroupListAnswer> => {
      const all = await groups.list(caller, input.uuid);
      const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
      return { groups: items, page };
    },
  );

  authedRoute(ctx, app, 'group/add', groupAddRequest, ({ caller, input }) =>
    groups.add(caller, input.account_id, input.name, input.type),
  );

  authedRoute(ctx, app, 'group/set', groupSetRequest, ({ caller, input }) =>
    groups.rename(caller, input.uuid, input.name),
  );

  authedRoute(ctx, app, 'group/delete', uuidRequest, async ({ caller, input }) => {
    await groups.remove(caller, input.uuid);
  });

  authedRoute(
    ctx,
    app,
    'group/user/list',
    groupUserListRequest,
    async ({ caller, input, filters }): Promise<GroupMemberListAnswer> => {
      const all = await groups.members(caller, input.uuid);
      const { items, page } = pageOf(filterRows(all, filters), input['page.number'], input['page.rows']);
      return { users: items, page };
    },
  );

  authedRoute(ctx, app, 'group/user/add', groupUserAddRequest, ({ caller, input }) =>
    groups.setMember(caller, input.uuid, input.user_id, input.role_id),
  );

  authedRoute(ctx, app, 'group/user/delete', groupUserDeleteRequest, async ({ caller, input }) => {
    await groups.removeMember(caller, input.uuid, input.user_id);
  });
}
