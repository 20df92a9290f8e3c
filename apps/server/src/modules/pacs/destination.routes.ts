import {
  destinationAddRequest,
  destinationListRequest,
  filterRows,
  pageOf,
  destinationRetrieveRequest,
  destinationSearchMwlRequest,
  destinationSearchRequest,
  destinationSetRequest,
  studyItemListRequest,
  studyPushRequest,
  uuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** PACS-like destinations of an account (see docs/api-v3.md): managed by its admins. */
export function destinationRoutes(ctx: AppContext, app: FastifyInstance): void {
  const destinations = ctx.services.destinations;

  authedRoute(ctx, app, 'destination/list', destinationListRequest, async ({ caller, input, filters }) => {
    const list = await destinations.list(caller, input.account_id, input['filter.uuid.in']);
    const { items, page } = pageOf(filterRows(list, filters), input['page.number'], input['page.rows']);
    return { destinations: items, page };
  });

  authedRoute(ctx, app, 'destination/get', uuidRequest, async ({ caller, input: { uuid } }) => {
    return destinations.get(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/add', destinationAddRequest, async ({ caller, input }) => {
    const { account_id: accountId, ...fields } = input;
    return destinations.add(caller, accountId, fields);
  });

  authedRoute(ctx, app, 'destination/set', destinationSetRequest, async ({ caller, input }) => {
    const { uuid, ...fields } = input;
    return destinations.set(caller, uuid, fields);
  });

  authedRoute(ctx, app, 'destination/delete', uuidRequest, async ({ caller, input: { uuid } }) => {
    await destinations.remove(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/echo', uuidRequest, async ({ caller, input: { uuid } }) => {
    return destinations.echo(caller, uuid);
  });
}

/**
 * Retrieve Study: a destination search (C-FIND job), its poll, and the retrieve of a found study;
 * and a search of a destination's Modality Worklist (Ambra's destination/search/mwl), polled the same way.
 */
export function destinationSearchRoutes(ctx: AppContext, app: FastifyInstance): void {
  const searches = ctx.services.destinationSearches;

  authedRoute(ctx, app, 'destination/search', destinationSearchRequest, async ({ caller, input }) => {
    const { uuid, copy_to: copyTo, ...criteria } = input;
    return searches.search(caller, uuid, copyTo, criteria);
  });

  authedRoute(ctx, app, 'destination/search/mwl', destinationSearchMwlRequest, async ({ caller, input }) => {
    return ctx.services.worklistSearches.search(caller, input);
  });

  authedRoute(ctx, app, 'destination/search/get', uuidRequest, async ({ caller, input: { uuid } }) => {
    return searches.get(caller, uuid);
  });

  authedRoute(ctx, app, 'destination/retrieve', destinationRetrieveRequest, async ({ caller, input }) => {
    if (input.study_uid === null) return { retrieves: await searches.retrieveAll(caller, input.search) };
    return searches.retrieve(caller, input.search, input.study_uid);
  });
}

/** Push to PACS: study/push queues an attempt (or the Retry of a partial one); study/push/list its history. */
export function studyPushRoutes(ctx: AppContext, app: FastifyInstance): void {
  const pushes = ctx.services.pushes;

  authedRoute(ctx, app, 'study/push', studyPushRequest, async ({ caller, input }) => {
    // Wrapped: the attempt's own `status` (I/N/P/S/F) is not the answer's.
    return { push: await pushes.push(caller, input.uuid, input.destination_id, input.anonymization_id) };
  });

  authedRoute(ctx, app, 'study/push/list', studyItemListRequest, async ({ caller, input, filters }) => {
    const { items, page } = pageOf(
      filterRows(await pushes.list(caller, input.uuid), filters),
      input['page.number'],
      input['page.rows'],
    );
    return { pushes: items, page };
  });
}
