import { expect } from 'vitest';
import type { Db } from '../../src/db/dialect.js';
import type { ApiClient, TestServer } from './test-server.js';
import { until } from './until.js';

/**
 * The seeded demo world as the gatekeeper, PACS and mail tests use it: its users signed in, its
 * groups by name, its account, the nominations and destinations they build on. Each step is an
 * api/v3 call a user could make, so the tests start from what the product itself wrote.
 */

/** A demo user, by the name before `@demo.local` in the address the seed gives it. */
export type DemoUser = 'admin' | 'clinician' | 'gatekeeper' | 'viewer' | 'partner';
export type DemoGroup = Awaited<ReturnType<ApiClient['groups']>>[number];

export interface DemoWorld<U extends DemoUser> {
  /** A session of each user asked for. */
  sid: Record<U, string>;
  /** The groups the first user asked for is in, by name (all of them for the admin). */
  groups: Record<string, DemoGroup>;
  /** The demo account (the first user's first account). */
  account: string;
}

/** Signs in `users` one after the other and reads the groups and account the first of them sees. */
export async function demoWorld<U extends DemoUser>(
  server: TestServer,
  users: readonly [U, ...U[]],
): Promise<DemoWorld<U>> {
  const sid = {} as Record<U, string>;
  for (const user of users) sid[user] = await server.api.login(`${user}@demo.local`);
  const first = sid[users[0]];
  const groups = Object.fromEntries((await server.api.groups(first)).map((g) => [g.name, g]));
  return { sid, groups, account: await firstAccountOf(server.api, first) };
}

/** The first account a user sees in account/list (the demo users' own). */
export async function firstAccountOf(api: ApiClient, sid: string): Promise<string> {
  return (await api.call('account/list', {}, sid)).body.accounts[0].uuid as string;
}

/** The seeded nomination form's required answers, as a clinician fills them in. */
export const NOMINATION_ANSWERS = {
  'customfield-priority': 'Routine',
  'customfield-reason_for_visit': 'Outside CT',
  'customfield-nominated_by': 'Dr Claire',
};

/** Nominates `study` to the gatekeeper group `gatekeeper`; answers the gatekeeper's copy. */
export async function nominate(
  api: ApiClient,
  clinician: string,
  study: string,
  gatekeeper: string,
  answers: Record<string, string> = NOMINATION_ANSWERS,
): Promise<string> {
  const nominated = await api.call(
    'study/nominate',
    { uuid: study, gatekeeper_id: gatekeeper, ...answers },
    clinician,
  );
  const copy = nominated.body.nomination?.copy_uuid as string | undefined;
  if (!copy) throw new Error(`nomination refused: ${JSON.stringify(nominated.body)}`);
  return copy;
}

/** Adds a DICOM destination to `account`; answers its uuid. */
export async function addDestination(
  api: ApiClient,
  admin: string,
  account: string,
  fields: Record<string, string | number>,
): Promise<string> {
  const added = await api.call(
    'destination/add',
    { account_id: account, address: '127.0.0.1', ...fields },
    admin,
  );
  if (!added.body.uuid) throw new Error(`destination refused: ${JSON.stringify(added.body)}`);
  return added.body.uuid as string;
}

/** The gatekeeper configuration a group has now. */
export async function gatekeeperConfig(api: ApiClient, admin: string, group: string) {
  return (await api.call('group/get', { uuid: group }, admin)).body.gatekeeper_config as Record<
    string,
    unknown
  > & { destinations: string[] };
}

/** Replaces a gatekeeper group's configuration, which must be taken. */
export async function setGatekeeperConfig(
  api: ApiClient,
  admin: string,
  group: string,
  config: Record<string, unknown>,
): Promise<void> {
  const set = await api.call('group/config/set', { uuid: group, config: JSON.stringify(config) }, admin);
  expect(set.body.status).toBe('OK');
}

/**
 * Makes the demo PACS Archive, PACS Intake's one destination, this test server's own listener: the
 * seed wrote the configured DICOM port, and a test server listens on a free one. Answers PACS
 * Intake's configuration.
 */
export async function listenAsDemoArchive(server: TestServer, world: DemoWorld<'admin'>) {
  const config = await gatekeeperConfig(server.api, world.sid.admin, world.groups['PACS Intake']!.uuid);
  await server.ctx.db.kysely
    .updateTable('destinations')
    .set({ port: server.dicomPort })
    .where('uuid', '=', config.destinations[0]!)
    .execute();
  return config;
}

/**
 * Waits until every image of `study` is listed in the namespace `namespaceId` (as `sid` sees it),
 * where a push or a route sends it; answers that namespace's row of it.
 */
export async function arrivedIn(
  api: ApiClient,
  sid: string,
  namespaceId: string,
  study: { study_uid: string; image_count: number },
): Promise<Record<string, unknown> | undefined> {
  const list = await until(
    () =>
      api
        .call('study/list', { 'filter.phi_namespace.equals': namespaceId }, sid)
        .then((r) => r.body.studies as Record<string, unknown>[]),
    (rows) => rows.some((s) => s['study_uid'] === study.study_uid && s['image_count'] === study.image_count),
  );
  return list.find((s) => s['study_uid'] === study.study_uid);
}

/** The uuid of a seeded account by its name ('Demo Hospital', 'Partner Clinic'), read in the index. */
export async function accountIdOf(db: Db, name: string): Promise<string> {
  return (
    await db.kysely.selectFrom('accounts').select('uuid').where('name', '=', name).executeTakeFirstOrThrow()
  ).uuid;
}

/** The uuid of the demo world's registered DICOM sender (DEMO_GATEWAY, whose exams land in Emergency). */
export async function demoGatewayId(db: Db): Promise<string> {
  return (
    await db.kysely
      .selectFrom('dicom_nodes')
      .select('uuid')
      .where('ae_title', '=', 'DEMO_GATEWAY')
      .executeTakeFirstOrThrow()
  ).uuid;
}

/** Every user's uuid by the name before the @ of their address ('admin', 'clinician', …), read in the index. */
export async function userIdsByName(db: Db): Promise<Record<string, string>> {
  const users = await db.kysely.selectFrom('users').select(['uuid', 'email']).execute();
  return Object.fromEntries(users.map((u) => [u.email.split('@')[0]!, u.uuid]));
}

/** Every group's uuid by its name, read in the index. */
export async function groupIdsByName(db: Db): Promise<Record<string, string>> {
  const groups = await db.kysely.selectFrom('groups').select(['uuid', 'name']).execute();
  return Object.fromEntries(groups.map((g) => [g.name, g.uuid]));
}
