import { randomBytes } from 'node:crypto';
import { generateStudySpecs, writeStudyFiles } from '../../src/dicom/index.js';
import type { TestServer } from './test-server.js';

/**
 * The callers and objects of the authorization matrix (authorization-matrix.test.ts), made once per
 * server on top of the demo world: one study in each interesting place, the links, sends,
 * attachments, DICOM nodes and upload sessions that name them, and the credentials of every kind of
 * caller.
 */

export const PRINCIPALS = [
  'none',
  'garbageSid',
  'loggedOutSid',
  'viewer',
  'clinician',
  'gatekeeper',
  'partnerAdmin',
  'admin',
  'outsideAdmin',
  'delegatedAdmin',
  'linkGrant',
  'viewerToken',
] as const;
export type Principal = (typeof PRINCIPALS)[number];

/**
 * The principals that are signed-in users: the demo world's, and two the matrix invites (decision
 * 0052): `outsideAdmin`, a second admin of Partner Clinic who has invited Demo Hospital's clinician
 * there (she has not accepted), acting on Demo Hospital's objects as another account's admin; and
 * `delegatedAdmin`, a Demo Hospital member holding role_edit and user view, edit and invite through
 * a role, who is not an account admin.
 */
export type Member =
  'viewer' | 'clinician' | 'gatekeeper' | 'partnerAdmin' | 'admin' | 'outsideAdmin' | 'delegatedAdmin';
export const MEMBER_EMAILS: Record<Member, string> = {
  viewer: 'viewer@demo.local',
  clinician: 'clinician@demo.local',
  gatekeeper: 'gatekeeper@demo.local',
  partnerAdmin: 'partner@demo.local',
  admin: 'admin@demo.local',
  outsideAdmin: 'outside-admin@matrix.example',
  delegatedAdmin: 'delegated-admin@matrix.example',
};
/** The members the matrix invites (see `inviteMatrixMembers`); the others are the demo world's. */
const INVITED_MEMBERS: readonly Member[] = ['outsideAdmin', 'delegatedAdmin'];
/** What the delegated admin's role grants on Demo Hospital (access-matrix.ts reads it too). */
export const DELEGATED_ADMIN_GRANT = [
  'role_view',
  'role_edit',
  'account_user_view',
  'account_user_edit',
  'account_user_invite',
] as const;
const MATRIX_PASSWORD = 'Matrix-pass-2024';
export const isMember = (p: Principal): p is Member => p in MEMBER_EMAILS;

/**
 * The objects every object-scoped route is tried on. Relative to a caller they are their own
 * group, another group of their account, another account, a deleted study, or a shared copy:
 * - emergency: a study in Emergency (the viewer's and the clinician's group);
 * - intake: a study in PACS Intake (the gatekeeper's group; another group for the clinician);
 * - partner: a study in Partner Clinic's Referrals (another account for every Demo Hospital user);
 * - deleted: a study of Emergency in Deleted items;
 * - shared: a copy of another Intake study in the clinician's personal 'Shared with me' namespace
 *   (the original stays in Intake, so over DICOMweb its UID is the Intake study's).
 */
export const OBJECTS = ['emergency', 'intake', 'partner', 'deleted', 'shared'] as const;
export type ObjectKey = (typeof OBJECTS)[number];

/** Where a namespace sits: the demo groups, the partner's group and the clinician's personal one. */
export type NsKey = 'emergency' | 'cardiology' | 'intake' | 'teaching' | 'referrals' | 'clinicianPersonal';
export type AccountKey = 'demo' | 'partner';

export interface MatrixObject {
  key: ObjectKey;
  uuid: string;
  studyUid: string;
  seriesUid: string;
  instanceUid: string;
  ns: NsKey;
  namespaceId: string;
  /** The group uuid (the namespace id for a personal namespace). */
  groupId: string;
  account: AccountKey;
  accountId: string;
  deleted: boolean;
  /** The namespaces holding a live copy of this Study Instance UID (what DICOMweb finds by UID). */
  uidCopies: NsKey[];
  /** An attachment of the study, where one could be added. */
  attachmentId?: string;
  /** A delayed send of the study, still cancellable. */
  sendId?: string;
  /** A request-study link to the study's group. */
  linkId?: string;
  /** A DICOM node of the study's account. */
  nodeId?: string;
  /** A registered HL7 sender of the study's account. */
  hl7SenderId?: string;
  /** A PACS destination of the study's account. */
  destinationId?: string;
  /** A destination search into the study's group, which found the study (retrieves may start). */
  searchId?: string;
  /** A role of the study's account ('Matrix role'), held by a member the matrix does not call as. */
  roleId?: string;
  /** A custom field of the study's account ('Matrix field', text). */
  customFieldId?: string;
  /** A routing rule of the study's account. */
  routeId?: string;
  /** A webhook of the study's account. */
  webhookId?: string;
  /** A de-identification profile of the study's account. */
  anonymizationId?: string;
}

export interface World {
  sids: Record<Member, string>;
  userIds: Record<Member, string>;
  loggedOutSid: string;
  garbageSid: string;
  grant: string;
  /** The token of the link the grant was opened from (link/public/info and unlock take it). */
  linkToken: string;
  viewerToken: string;
  objects: Record<ObjectKey, MatrixObject>;
  namespaces: Record<NsKey, string>;
  /** Upload sessions: one of the clinician's sign-in session, one of the link grant. */
  uploadSession: { clinician: string; grant: string };
  /** A small DICOM instance any upload route can take. */
  dicomFile: Uint8Array;
}

/** The credentials a principal sends: a Bearer sid or viewer token, a link grant header, or nothing. */
export function credentials(world: World, principal: Principal): Record<string, string> {
  const bearer = (value: string) => ({ authorization: `Bearer ${value}` });
  switch (principal) {
    case 'none':
      return {};
    case 'garbageSid':
      return bearer(world.garbageSid);
    case 'loggedOutSid':
      return bearer(world.loggedOutSid);
    case 'linkGrant':
      return { 'x-link-grant': world.grant };
    case 'viewerToken':
      return bearer(world.viewerToken);
    default:
      return bearer(world.sids[principal]);
  }
}

async function ok<T = any>(
  server: TestServer,
  path: string,
  params: Record<string, string | number>,
  sid: string,
) {
  const answer = await server.api.call<T>(path, params, sid);
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/**
 * Invites the matrix's own members as their admins would (a new address, its one-time link to
 * choose a password), signs them in, and has the outside admin invite Demo Hospital's clinician to
 * Partner Clinic.
 */
async function inviteMatrixMembers(
  server: TestServer,
  sids: Partial<Record<Member, string>>,
  accountIds: Record<AccountKey, string>,
): Promise<void> {
  const db = server.ctx.db.kysely;
  const join = async (member: Member, account: AccountKey, by: string, fields: Record<string, string>) => {
    const email = MEMBER_EMAILS[member];
    await ok(server, 'account/user/add', { uuid: accountIds[account], email, ...fields }, by);
    const mail = await db
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    const token = decodeURIComponent(/reset-password\?token=([A-Za-z0-9_%-]+)/.exec(mail.body)![1]!);
    await ok(server, 'user/password/reset', { token, password: MATRIX_PASSWORD }, '');
    sids[member] = await server.api.login(email, MATRIX_PASSWORD);
  };
  await join('outsideAdmin', 'partner', sids.partnerAdmin!, { role: 'admin' });
  const role = await ok(
    server,
    'role/add',
    { account_id: accountIds.demo, name: 'Delegated admin', permissions: DELEGATED_ADMIN_GRANT.join(',') },
    sids.admin!,
  );
  await join('delegatedAdmin', 'demo', sids.admin!, { role_id: role.uuid as string });
  await ok(
    server,
    'account/user/add',
    { uuid: accountIds.partner, email: MEMBER_EMAILS.clinician },
    sids.outsideAdmin!,
  );
}

export async function buildWorld(server: TestServer): Promise<World> {
  const db = server.ctx.db.kysely;
  const accounts = await db.selectFrom('accounts').select(['uuid', 'name']).execute();
  const accountIds: Record<AccountKey, string> = {
    demo: accounts.find((a) => a.name === 'Demo Hospital')!.uuid,
    partner: accounts.find((a) => a.name === 'Partner Clinic')!.uuid,
  };
  const demoMembers = (Object.keys(MEMBER_EMAILS) as Member[]).filter((m) => !INVITED_MEMBERS.includes(m));
  const signedIn: Partial<Record<Member, string>> = Object.fromEntries(
    await Promise.all(demoMembers.map(async (m) => [m, await server.api.login(MEMBER_EMAILS[m])] as const)),
  );
  await inviteMatrixMembers(server, signedIn, accountIds);
  const sids = signedIn as Record<Member, string>;
  const members = Object.keys(MEMBER_EMAILS) as Member[];
  const users = await db.selectFrom('users').select(['uuid', 'email']).execute();
  const userIds = Object.fromEntries(
    members.map((m) => [m, users.find((u) => u.email === MEMBER_EMAILS[m])!.uuid]),
  ) as Record<Member, string>;
  const loggedOutSid = await server.api.login(MEMBER_EMAILS.clinician);
  await ok(server, 'session/logout', {}, loggedOutSid);

  const groups = await db
    .selectFrom('groups')
    .select(['uuid', 'name', 'namespace_id', 'account_id'])
    .execute();
  const group = (name: string) => groups.find((g) => g.name === name)!;

  /** The smallest studies of a group, so reads and downloads stay quick. */
  const smallest = (name: string) =>
    db
      .selectFrom('studies')
      .select(['uuid', 'study_uid'])
      .where('namespace_id', '=', group(name).namespace_id)
      .orderBy('image_count')
      .orderBy('uuid')
      .limit(2)
      .execute();
  const [emergency, deleted] = await smallest('Emergency');
  const [intake, toShare] = await smallest('PACS Intake');

  // A study of the other account, uploaded by its admin.
  const referrals = group('Referrals');
  const [spec] = generateStudySpecs(1, 7301, { now: new Date('2026-06-01T00:00:00Z') });
  const files = writeStudyFiles({ ...spec!, series: spec!.series.slice(0, 1) }, { rows: 32, columns: 32 });
  for (const file of files) {
    const answer = await server.api.upload(sids.partnerAdmin, referrals.namespace_id, file.bytes);
    if (answer.status !== 202) throw new Error(`partner upload: ${JSON.stringify(answer.body)}`);
  }
  const partner = await db
    .selectFrom('studies')
    .select(['uuid', 'study_uid'])
    .where('namespace_id', '=', referrals.namespace_id)
    .where('study_uid', '=', spec!.studyInstanceUid)
    .executeTakeFirstOrThrow();
  const [dicomFile] = writeStudyFiles(generateStudySpecs(1, 7302)[0]!, { rows: 16, columns: 16 });

  // The clinician's personal copy of an Intake study, shared by the admin.
  await ok(server, 'study/share', { uuid: toShare!.uuid, user_id: userIds.clinician }, sids.admin);
  const personal = await db
    .selectFrom('namespaces')
    .select('id')
    .where('owner_user_id', '=', userIds.clinician)
    .executeTakeFirstOrThrow();
  const shared = await db
    .selectFrom('studies')
    .select(['uuid', 'study_uid'])
    .where('namespace_id', '=', personal.id)
    .where('study_uid', '=', toShare!.study_uid)
    .executeTakeFirstOrThrow();

  const namespaces: Record<NsKey, string> = {
    emergency: group('Emergency').namespace_id,
    cardiology: group('Cardiology').namespace_id,
    intake: group('PACS Intake').namespace_id,
    teaching: group('Teaching Files').namespace_id,
    referrals: referrals.namespace_id,
    clinicianPersonal: personal.id,
  };

  const firstInstance = (studyUuid: string) =>
    db
      .selectFrom('instances')
      .innerJoin('series', 'series.uuid', 'instances.series_uuid')
      .select(['series.series_uid', 'instances.sop_instance_uid'])
      .where('instances.study_uuid', '=', studyUuid)
      .orderBy('series.series_uid')
      .orderBy('instances.sop_instance_uid')
      .executeTakeFirstOrThrow();

  const make = async (
    key: ObjectKey,
    row: { uuid: string; study_uid: string },
    ns: NsKey,
    groupName: string | null,
    account: AccountKey,
    uidCopies: NsKey[],
  ): Promise<MatrixObject> => {
    const first = await firstInstance(row.uuid);
    return {
      key,
      uuid: row.uuid,
      studyUid: row.study_uid,
      seriesUid: first.series_uid,
      instanceUid: first.sop_instance_uid,
      ns,
      namespaceId: namespaces[ns],
      groupId: groupName ? group(groupName).uuid : namespaces[ns],
      account,
      accountId: accountIds[account],
      deleted: key === 'deleted',
      uidCopies,
    };
  };
  const objects: Record<ObjectKey, MatrixObject> = {
    emergency: await make('emergency', emergency!, 'emergency', 'Emergency', 'demo', ['emergency']),
    intake: await make('intake', intake!, 'intake', 'PACS Intake', 'demo', ['intake']),
    partner: await make('partner', partner, 'referrals', 'Referrals', 'partner', ['referrals']),
    deleted: await make('deleted', deleted!, 'emergency', 'Emergency', 'demo', []),
    shared: await make('shared', shared, 'clinicianPersonal', null, 'demo', ['intake', 'clinicianPersonal']),
  };

  // Attachments (before the deleted study is deleted: a deleted study takes none).
  const attach = async (object: MatrixObject, sid: string) => {
    const body = new FormData();
    body.append('file', new Blob([new TextEncoder().encode('report')], { type: 'text/plain' }), 'report.txt');
    const response = await fetch(
      `${server.url}/api/v3/storage/study/${object.namespaceId}/${object.studyUid}/attachment?sid=${sid}`,
      { method: 'POST', body },
    );
    const answer = (await response.json()) as { id?: string };
    if (response.status !== 200 || !answer.id) throw new Error(`attachment: ${JSON.stringify(answer)}`);
    object.attachmentId = answer.id;
  };
  await attach(objects.emergency, sids.clinician);
  await attach(objects.intake, sids.admin);
  await attach(objects.partner, sids.partnerAdmin);
  await attach(objects.deleted, sids.clinician);
  await ok(server, 'study/delete', { uuid: objects.deleted.uuid }, sids.admin);

  // Delayed sends, cancellable for three minutes.
  const delayedSend = async (object: MatrixObject, to: Record<string, string>, sid: string) => {
    const answer = await ok(server, 'study/share', { uuid: object.uuid, ...to, delay: '1' }, sid);
    object.sendId = answer.send_id as string;
  };
  const referralsDesk = { share_code: 'PARTNER-REFERRALS' };
  await delayedSend(objects.emergency, referralsDesk, sids.clinician);
  await delayedSend(objects.intake, referralsDesk, sids.admin);
  await delayedSend(objects.partner, { email: 'recipient@matrix.example' }, sids.partnerAdmin);

  // Request-study links: one per group to be managed, and one whose grant is a principal.
  const addLink = async (namespaceId: string, sid: string, email: string) =>
    (
      await ok(
        server,
        'link/add',
        { namespace_id: namespaceId, action: 'STUDY_UPLOAD', email, max_hits: 1000, minutes_alive: 600 },
        sid,
      )
    ).uuid as string;
  objects.emergency.linkId = await addLink(namespaces.emergency, sids.clinician, 'e@matrix.example');
  objects.intake.linkId = await addLink(namespaces.intake, sids.admin, 'i@matrix.example');
  objects.partner.linkId = await addLink(namespaces.referrals, sids.partnerAdmin, 'p@matrix.example');
  await addLink(namespaces.emergency, sids.clinician, 'grant@matrix.example');
  const mail = await db
    .selectFrom('outbox')
    .select('body')
    .where('to_address', '=', 'grant@matrix.example')
    .executeTakeFirstOrThrow();
  const linkToken = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
  const grant = (await ok(server, 'link/public/unlock', { token: linkToken }, '')).grant as string;

  // DICOM nodes: the demo gateway, and one the partner admin registers.
  const demoNode = await db
    .selectFrom('dicom_nodes')
    .select('uuid')
    .where('account_id', '=', accountIds.demo)
    .executeTakeFirstOrThrow();
  objects.emergency.nodeId = demoNode.uuid;
  objects.intake.nodeId = demoNode.uuid;
  objects.partner.nodeId = (
    await ok(
      server,
      'dicom/node/add',
      { account_id: accountIds.partner, ae_title: 'PARTNER_GW', host: '127.0.0.1', group_id: referrals.uuid },
      sids.partnerAdmin,
    )
  ).uuid as string;

  // HL7 senders: the demo RIS, and one the partner admin registers.
  const demoSender = await db
    .selectFrom('hl7_senders')
    .select('uuid')
    .where('account_id', '=', accountIds.demo)
    .executeTakeFirstOrThrow();
  objects.emergency.hl7SenderId = demoSender.uuid;
  objects.intake.hl7SenderId = demoSender.uuid;
  objects.partner.hl7SenderId = (
    await ok(
      server,
      'hl7/sender/add',
      { account_id: accountIds.partner, host: '127.0.0.2', facility: 'PARTNER_RIS' },
      sids.partnerAdmin,
    )
  ).uuid as string;

  // PACS destinations (nothing listens at their port: an echo answers a failed C-ECHO).
  const addDestination = async (object: MatrixObject, aetitle: string, sid: string) => {
    const fields = { name: aetitle, aetitle, address: '127.0.0.1', port: 9, can_search: 1, can_push: 1 };
    object.destinationId = (
      await ok(server, 'destination/add', { account_id: object.accountId, ...fields }, sid)
    ).uuid as string;
  };
  await addDestination(objects.emergency, 'DEMO_PACS', sids.admin);
  await addDestination(objects.partner, 'PARTNER_PACS', sids.partnerAdmin);
  // A role of each account, held (so role/delete is refused after the access check) by an invited
  // user no row calls as.
  for (const [key, sid, others] of [
    ['emergency', sids.admin, ['intake', 'deleted', 'shared']],
    ['partner', sids.partnerAdmin, []],
  ] as const) {
    const object = objects[key];
    const role = await ok(server, 'role/add', { account_id: object.accountId, name: 'Matrix role' }, sid);
    await ok(
      server,
      'account/user/add',
      { uuid: object.accountId, email: `role-holder-${key}@matrix.example`, role_id: role.uuid as string },
      sid,
    );
    object.roleId = role.uuid as string;
    const field = await ok(
      server,
      'customfield/add',
      { account_id: object.accountId, name: 'Matrix field', type: 'text' },
      sid,
    );
    object.customFieldId = field.uuid as string;
    for (const other of others) {
      objects[other].roleId = object.roleId;
      objects[other].customFieldId = object.customFieldId;
    }
  }
  for (const key of ['intake', 'deleted', 'shared'] as const) {
    objects[key].destinationId = objects.emergency.destinationId;
  }
  // A webhook (to a public address: nothing is ever sent to it) and a routing rule of each account.
  const addRuleAndHook = async (object: MatrixObject, sid: string) => {
    const hook = { name: 'Matrix hook', url: 'https://93.184.216.34/hook', event: 'study_shared' };
    object.webhookId = (await ok(server, 'webhook/add', { account_id: object.accountId, ...hook }, sid))
      .webhook.uuid as string;
    const actions = JSON.stringify([{ type: 'webhook', webhook_id: object.webhookId }]);
    const rule = { name: 'Matrix rule', when: 'manual', actions };
    object.routeId = (await ok(server, 'route/add', { account_id: object.accountId, ...rule }, sid)).route
      .uuid as string;
  };
  await addRuleAndHook(objects.emergency, sids.admin);
  await addRuleAndHook(objects.partner, sids.partnerAdmin);
  // A de-identification profile of each account (decision 0067).
  for (const [key, sid, others] of [
    ['emergency', sids.admin, ['intake', 'deleted', 'shared']],
    ['partner', sids.partnerAdmin, []],
  ] as const) {
    const profile = await ok(
      server,
      'anonymization/add',
      { account_id: objects[key].accountId, name: 'Matrix profile' },
      sid,
    );
    for (const target of [key, ...others]) objects[target].anonymizationId = profile.uuid as string;
  }
  // A destination search into each group, with the group's study among its results (written here:
  // nothing answers at the destination's port, so the search itself finds nothing).
  for (const [key, sid] of [
    ['emergency', sids.admin],
    ['intake', sids.admin],
    ['partner', sids.partnerAdmin],
  ] as const) {
    const object = objects[key];
    object.searchId = (
      await ok(
        server,
        'destination/search',
        { uuid: object.destinationId!, copy_to: object.namespaceId, patient_name: 'MATRIX' },
        sid,
      )
    ).uuid as string;
    await db
      .insertInto('destination_search_results')
      .values({
        search_id: object.searchId,
        seq: 0,
        study_uid: object.studyUid,
        patient_name: 'MATRIX^TEST',
        patient_birth_date: '',
        patient_sex: '',
        patientid: 'MATRIX',
        accession_number: '',
        study_date: '',
        study_description: '',
        modality: '',
        source_ae: 'DEMO_PACS',
      })
      .execute();
  }

  const viewerToken = (
    await ok(server, 'study/viewer/token', { uuid: objects.emergency.uuid }, sids.clinician)
  ).token as string;

  const clinicianSession = (
    await ok(
      server,
      'upload/session/create',
      { namespace_id: namespaces.emergency, size: 100_000 },
      sids.clinician,
    )
  ).id as string;
  const grantSession = await fetch(`${server.url}/api/v3/link/public/upload/session/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-link-grant': grant },
    body: new URLSearchParams({ size: '100000' }),
  }).then((r) => r.json() as Promise<{ id: string }>);

  return {
    sids,
    userIds,
    loggedOutSid,
    garbageSid: randomBytes(32).toString('hex'),
    grant,
    linkToken,
    viewerToken,
    objects,
    namespaces,
    uploadSession: { clinician: clinicianSession, grant: grantSession.id },
    dicomFile: dicomFile!.bytes,
  };
}

/** Puts the matrix objects back as built (not locked, deleted only the deleted one) after a mutating route. */
export async function resetObjects(server: TestServer, world: World): Promise<void> {
  for (const object of Object.values(world.objects)) {
    await server.ctx.db.kysely
      .updateTable('studies')
      .set({ is_locked: 0, locked_by: null, ...(object.deleted ? {} : { deleted: null }) })
      .where('uuid', '=', object.uuid)
      .execute();
  }
  const deleted = world.objects.deleted;
  await server.ctx.db.kysely
    .updateTable('studies')
    .set({ deleted: Date.now() })
    .where('uuid', '=', deleted.uuid)
    .where('deleted', 'is', null)
    .execute();
}
