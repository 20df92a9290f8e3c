import {
  dicomNodeAddRequest,
  dicomNodeListRequest,
  dicomNodeSetRequest,
  groupScannerValidateRequest,
  filterRows,
  pageOf,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The registered DICOM senders of an account (account admins only; see docs/api-v3.md). */
export function dicomNodeRoutes(ctx: AppContext, app: FastifyInstance): void {
  const nodes = ctx.services.dicomNodes;

  authedRoute(ctx, app, 'dicom/node/list', dicomNodeListRequest, async ({ caller, input, filters }) => {
    const list = await nodes.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { nodes: items, page };
  });

  authedRoute(ctx, app, 'dicom/node/add', dicomNodeAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return nodes.add(caller, accountId, fields);
  });

  authedRoute(ctx, app, 'dicom/node/set', dicomNodeSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return nodes.set(caller, uuid, fields);
  });

  authedRoute(ctx, app, 'dicom/node/delete', uuidRequest, async ({ caller, input }) => {
    await nodes.remove(caller, input.uuid);
  });

  // Would a scanner calling as this AE title land in the group? A read, by the listener's rules.
  authedRoute(ctx, app, 'group/scanner/validate', groupScannerValidateRequest, ({ caller, input }) =>
    ctx.services.scanners.validate(caller, input),
  );
}
