import { registeredRoutes } from '../../src/http/app.js';
import type { World } from './access-world.js';
import { credentials } from './access-world.js';
import type { TestServer } from './test-server.js';

/**
 * The api/v3 lists, and the parameters each needs besides its page and filters, shared by the walks
 * of every list (paging: test/api/list-paging.test.ts; filters: test/api/list-filters.test.ts).
 */

/**
 * A list: its path ends in `/list`, or it is one of these lists named otherwise. Searches are not
 * lists: order/search and destination/search/get answer every match of a bounded search, unpaged.
 */
export const OTHER_LISTS = ['audit/log', 'audit/object', 'audit/account', 'audit/user', 'audit/failedlogins'];

/** Routes ending in `/list` that answer no `page`, and why (none today: add one only with its reason). */
export const NOT_PAGED: Record<string, string> = {};

/** The parameters a list needs besides its page, from the demo world (Demo Hospital's objects). */
export function paramsOf(path: string, world: World): Record<string, string> {
  const x = world.objects.emergency;
  const byPath: Record<string, Record<string, string>> = {
    'anonymization/list': { account_id: x.accountId },
    'group/list': { account_id: x.accountId },
    'customfield/list': { account_id: x.accountId },
    'dicom/node/list': { account_id: x.accountId },
    'hl7/sender/list': { account_id: x.accountId },
    'account/user/list': { uuid: x.accountId },
    'role/list': { account_id: x.accountId },
    'account/group/list': { uuid: x.accountId },
    'group/user/list': { uuid: x.groupId },
    'route/list': { account_id: x.accountId },
    'webhook/list': { account_id: x.accountId },
    'webhook/delivery/list': { uuid: x.webhookId! },
    'audit/log': { account_id: x.accountId },
    'audit/account': { account_id: x.accountId },
    'audit/user': { account_id: x.accountId, user_id: world.userIds.admin },
    'audit/failedlogins': { account_id: x.accountId },
    'label/list': { account_id: x.accountId },
    'destination/list': { account_id: x.accountId },
    'order/list': { account_id: x.accountId, 'filter.patientid.equals': 'MATRIX' },
  };
  // A study's lists (study/*/list, connection/list, audit/object) take the study's uuid.
  return (
    byPath[path] ?? (/^(study\/.+|connection)\/list$|^audit\/object$/.test(path) ? { uuid: x.uuid } : {})
  );
}

/** The api/v3 lists among registered route URLs. */
export function listPaths(urls: readonly string[]): string[] {
  return urls
    .map((url) => url.replace(/^\/api\/v3\//, ''))
    .filter((path) => path.endsWith('/list') || OTHER_LISTS.includes(path))
    .filter((path) => !(path in NOT_PAGED))
    .sort();
}

/** A list call's HTTP status and JSON body. */
export interface ListAnswer {
  status: number;
  body: Record<string, unknown>;
}

/**
 * What the walks of every list share: `call` posts a list as the demo admin with the list's own
 * parameters (paramsOf) and `params`; `lists` finds the lists among the server's registered routes,
 * so a new list is walked without being named. `started` gives the server and world once beforeAll
 * made them.
 */
export function listWalk(started: () => { server: TestServer; world: World }) {
  const call = async (path: string, params: Record<string, string>): Promise<ListAnswer> => {
    const { server, world } = started();
    const response = await fetch(`${server.url}/api/v3/${path}`, {
      method: 'POST',
      headers: { ...credentials(world, 'admin'), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...paramsOf(path, world), ...params }).toString(),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const lists = () => listPaths(registeredRoutes(started().server.http).map((r) => r.url));
  return { call, lists };
}
