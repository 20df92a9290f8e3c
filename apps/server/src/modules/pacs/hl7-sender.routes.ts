import {
  hl7SenderAddRequest,
  hl7SenderListRequest,
  hl7SenderSetRequest,
  filterRows,
  pageOf,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The registered HL7 senders of an account (account admins only; see docs/api-v3.md, decision 0056). */
export function hl7SenderRoutes(ctx: AppContext, app: FastifyInstance): void {
  const senders = ctx.services.hl7Senders;

  authedRoute(ctx, app, 'hl7/sender/list', hl7SenderListRequest, async ({ caller, input, filters }) => {
    const list = await senders.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { senders: items, page };
  });

  authedRoute(ctx, app, 'hl7/sender/add', hl7SenderAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return senders.add(caller, accountId, fields);
  });

  authedRoute(ctx, app, 'hl7/sender/set', hl7SenderSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return senders.set(caller, uuid, fields);
  });

  authedRoute(ctx, app, 'hl7/sender/delete', uuidRequest, async ({ caller, input }) => {
    await senders.remove(caller, input.uuid);
  });
}
