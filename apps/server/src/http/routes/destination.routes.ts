import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import type { Params } from '../params.js';
import { required, stringList } from '../params.js';

/** PACS-like destinations of an account (see docs/api-v3.md): managed by its admins. */
export function destinationRoutes(ctx: AppContext, app: FastifyInstance): void {
  const destinations = ctx.services.destinations;
  const fields = (params: Params) => ({
    name: params['name'],
    aetitle: params['aetitle'],
    address: params['address'],
    port: params['port'],
    can_search: params['can_search'],
    can_search_mwl: params['can_search_mwl'],
    can_push: params['can_push'],
    c_echo_interval: params['c_echo_interval'],
  });

  authedRoute(ctx, app, 'destination/list', async ({ caller, params }) => {
    const [accountId] = required(params, 'account_id');
    const filter = params['filter.uuid.in'];
    const uuids = filter === undefined ? undefined : stringList(filter, 'filter.uuid.in');
    const list = await destinations.list(caller, accountId, uuids);
    return { destinations: list, page: { number: 1, rows: list.length, more: 0 } };
  });

  authedRoute(ctx, app, 'destination/get', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return destinations.get(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/add', async ({ caller, params }) => {
    const [accountId] = required(params, 'account_id');
    return destinations.add(caller, accountId, fields(params));
  });

  authedRoute(ctx, app, 'destination/set', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return destinations.set(caller, uuid, fields(params));
  });

  authedRoute(ctx, app, 'destination/delete', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    await destinations.remove(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/echo', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return destinations.echo(caller, uuid);
  });
}

/** Retrieve Study: a destination search (C-FIND job), its poll, and the retrieve of a found study. */
export function destinationSearchRoutes(ctx: AppContext, app: FastifyInstance): void {
  const searches = ctx.services.destinationSearches;

  authedRoute(ctx, app, 'destination/search', async ({ caller, params }) => {
    const [uuid, copyTo] = required(params, 'uuid', 'copy_to');
    return searches.search(caller, uuid, copyTo, {
      patient_name: params['patient_name'],
      patientid: params['patientid'],
      accession_number: params['accession_number'],
      modality: params['modality'],
      query_fields: params['query_fields'],
      start_datetime: params['start_datetime'],
      end_datetime: params['end_datetime'],
    });
  });

  authedRoute(ctx, app, 'destination/search/get', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return searches.get(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/retrieve', async ({ caller, params }) => {
    const [searchId, studyUid] = required(params, 'destination_search_id', 'study_uid');
    return searches.retrieve(caller, searchId, studyUid);
  });
}

/** Push to PACS: study/push queues an attempt (or the Retry of a partial one); study/push/list its history. */
export function studyPushRoutes(ctx: AppContext, app: FastifyInstance): void {
  const pushes = ctx.services.pushes;

  authedRoute(ctx, app, 'study/push', async ({ caller, params }) => {
    const [uuid, destinationId] = required(params, 'uuid', 'destination_id');
    // Wrapped: the attempt's own `status` (I/N/P/S/F) is not the answer's.
    return { push: await pushes.push(caller, uuid, destinationId) };
  });

  authedRoute(ctx, app, 'study/push/list', async ({ caller, params }) => {
    const [uuid] = required(params, 'uuid');
    return { pushes: await pushes.list(caller, uuid) };
  });
}
