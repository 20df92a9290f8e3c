import {
  dicomNodeListRequest,
  groupScannerValidateRequest,
  filterRows,
  pageOf,
  rawText,
  requiredText,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The fields dicom/node/add and dicom/node/set take, as sent (the service checks each). */
const nodeFields = { ae_title: rawText(), host: rawText(), group_id: rawText(), name: rawText() };
const nodeAddRequest = z.object({ account_id: requiredText(), ...nodeFields });
const nodeSetRequest = z.object({ uuid: requiredText(), ...nodeFields });

/** The registered DICOM senders of an account (account admins only; see docs/api-v3.md). */
export function dicomNodeRoutes(ctx: AppContext, app: FastifyInstance): void {
  const nodes = ctx.services.dicomNodes;

  authedRoute(ctx, app, 'dicom/node/list', dicomNodeListRequest, async ({ caller, input, filters }) => {
    const list = await nodes.list(caller, input.account_id);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { nodes: items, page };
  });

  authedRoute(ctx, app, 'dicom/node/add', nodeAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return nodes.add(caller, accountId, fields);
  });

  authedRoute(ctx, app, 'dicom/node/set', nodeSetRequest, async ({ caller, input }) => {
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
