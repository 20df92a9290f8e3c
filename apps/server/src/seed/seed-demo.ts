import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { generateStudySpecs, writeStudyFiles } from '../dicom/index.js';
import { seedDemoOrders } from './demo-orders.js';
import { DEMO_OFFLINE_PACS, seedDemoNominations } from './demo-nominations.js';
import { hashPassword } from '../security/passwords.js';
import { newUuid } from '../security/tokens.js';
import { hl7IdKey } from '../modules/pacs/index.js';
import {
  DEMO_ACCOUNTS,
  DEMO_CONNECTIONS,
  DEMO_CUSTOM_FIELDS,
  DEMO_DICOM_NODES,
  DEMO_GATEKEEPER,
  DEMO_DEIDENTIFYING_GROUP,
  DEMO_HL7_SENDERS,
  DEMO_PACS_ARCHIVE,
  DEMO_ROLES,
  DEMO_USERS,
  STUDY_SPREAD,
} from './demo-world.js';

const SEED = 20261122;
const HOUR = 3_600_000;

/** Creates the demo world on an empty database; returns the generated password when none was given. */
export async function seedDemo(
  ctx: AppContext,
  options: {
    password?: string | undefined;
    studies: number;
    /**
     * PACS Intake's exams nominated through the gatekeeper workflow (the demo), or placed there
     * directly as nominations with no history (test servers, whose tests nominate for themselves).
     */
    nominations: boolean;
    log: (line: string) => void;
  },
) {
  const password = options.password ?? `Demo-${randomBytes(6).toString('base64url')}-42`;
  const now = Date.now();
  const groupIds = new Map<string, { uuid: string; namespaceId: string; accountId: string }>();
  const accountIds = new Map<string, string>();

  for (const account of DEMO_ACCOUNTS) {
    const uuid = newUuid();
    accountIds.set(account.key, uuid);
    await ctx.repos.accounts.createAccount({
      uuid,
      name: account.name,
      namespace_id: newUuid(),
      vanity: account.vanity,
      share_code: account.shareCode,
      created: now,
    });
    for (const [key, value] of Object.entries(account.settings))
      await ctx.repos.settings.set(`account:${uuid}`, key, value);
    for (const group of account.groups) {
      const g = { uuid: newUuid(), namespaceId: newUuid(), accountId: uuid };
      groupIds.set(group.key, g);
      await ctx.repos.accounts.createGroup({
        uuid: g.uuid,
        account_id: uuid,
        namespace_id: g.namespaceId,
        name: group.name,
        type: group.type,
        created: now,
      });
      if ('shareCode' in group) {
        await ctx.repos.sends.setShareCode(g.namespaceId, group.shareCode, group.shareDescription);
      }
    }
  }
  // Each account's calling AE title (decision 0054): Demo Hospital, the first, keeps DICOM_AET (INBOX),
  // Partner Clinic gets PARTNER_CLINIC.
  for (const uuid of accountIds.values()) await ctx.services.callingAes.ofAccount(uuid);

  for (const connection of DEMO_CONNECTIONS) {
    const target = groupIds.get(connection.targetGroup)!;
    await ctx.repos.sends.addConnection({
      uuid: newUuid(),
      account_id: accountIds.get(connection.account)!,
      name: connection.name,
      target_account_id: target.accountId,
      target_namespace_id: target.namespaceId,
      created: now,
    });
  }

  for (const node of DEMO_DICOM_NODES) {
    await ctx.repos.dicomNodes.insert({
      uuid: newUuid(),
      account_id: accountIds.get(node.account)!,
      ae_title: node.aeTitle,
      host: node.host,
      group_uuid: groupIds.get(node.group)!.uuid,
      name: node.name,
      query_groups: JSON.stringify(node.queryGroups.map((g) => groupIds.get(g)!.uuid)),
      may_retrieve: node.mayRetrieve ? 1 : 0,
      port: node.port,
      created: now,
    });
  }

  for (const sender of DEMO_HL7_SENDERS) {
    await ctx.repos.hl7Senders.insert({
      uuid: newUuid(),
      account_id: accountIds.get(sender.account)!,
      name: sender.name,
      host: sender.host,
      facility: sender.facility,
      facility_key: hl7IdKey(sender.facility),
      application: sender.application,
      application_key: hl7IdKey(sender.application),
      created: now,
    });
  }

  // Teaching Files stores what is shared into it de-identified (issue 33): Basic Profile + Clean Descriptors.
  const teaching = groupIds.get(DEMO_DEIDENTIFYING_GROUP.group)!;
  await ctx.repos.anonymizationProfiles.insert({
    uuid: newUuid(),
    account_id: teaching.accountId,
    name: DEMO_DEIDENTIFYING_GROUP.profile,
    options: JSON.stringify(DEMO_DEIDENTIFYING_GROUP.options),
    rules: '[]',
    groups: JSON.stringify([teaching.uuid]),
    created: now,
    updated: now,
  });

  for (const [order, field] of DEMO_CUSTOM_FIELDS.entries()) {
    await ctx.repos.customFields.insert({
      uuid: newUuid(),
      account_id: accountIds.get(field.account)!,
      object: 'study',
      name: field.name,
      type: field.type,
      required: field.required ? 1 : 0,
      options: JSON.stringify((field.options ?? []).map((value) => ({ value, field_label: value }))),
      display_order: order + 1,
      created: now,
    });
  }

  const gatekeeper = groupIds.get(DEMO_GATEKEEPER.group)!;
  const archive = await seedPacsArchive(ctx, groupIds.get(DEMO_PACS_ARCHIVE.group)!, now);
  const offline = options.nominations ? await seedOfflinePacs(ctx, gatekeeper.accountId, now) : null;
  const gatekeeperConfig = {
    customFields: DEMO_GATEKEEPER.customFields,
    pacsPromotePreference: 'NONE',
    destinations: offline ? [archive, offline] : [archive],
    queryDestination: null,
  };
  await ctx.repos.groupConfigs.set(
    gatekeeper.uuid,
    gatekeeper.accountId,
    JSON.stringify(gatekeeperConfig),
    now,
  );
  for (const key of DEMO_GATEKEEPER.promotedFrom) {
    const cloud = groupIds.get(key)!;
    await ctx.repos.groupConfigs.set(
      cloud.uuid,
      cloud.accountId,
      JSON.stringify({ promoteTo: [gatekeeper.uuid] }),
      now,
    );
  }

  const roleIds = new Map<string, string>();
  for (const role of DEMO_ROLES) {
    const uuid = newUuid();
    roleIds.set(role.key, uuid);
    await ctx.repos.roles.add({
      uuid,
      account_id: accountIds.get(role.account)!,
      name: role.name,
      permissions: JSON.stringify(role.permissions),
      created: now,
    });
  }
  const roleId = (key: string | undefined) => (key === undefined ? null : roleIds.get(key)!);

  const passwordHash = await hashPassword(password);
  for (const user of DEMO_USERS) {
    const uuid = newUuid();
    await ctx.repos.users.insert({
      uuid,
      email: user.email,
      name: `${user.first} ${user.last}`,
      first_name: user.first,
      last_name: user.last,
      password_hash: passwordHash,
      password_history: '[]',
      sysadmin: user.sysadmin ? 1 : 0,
      support: 0,
      status: 'ACTIVE',
      home_account_id: accountIds.get(user.account)!,
      time_zone: 'UTC',
      ui_json: null,
      created: now,
      last_login: null,
    });
    await ctx.repos.memberships.addAccountMember(
      accountIds.get(user.account)!,
      uuid,
      user.role,
      [...(user.accountPermissions ?? [])],
      roleId(user.accountRole),
    );
    for (const membership of user.groups) {
      await ctx.repos.memberships.addGroupMember(
        groupIds.get(membership.group)!.uuid,
        uuid,
        [...membership.permissions],
        roleId(membership.role),
      );
    }
  }

  const { nominations, toNominate } = await seedStudies(ctx, groupIds, options, now);
  const waiting = offline
    ? await seedDemoNominations(ctx, toNominate, gatekeeper.uuid, { archive, offline }, now)
    : nominations;
  await seedDemoOrders(ctx, gatekeeper.accountId, waiting);
  options.log(`Demo world created: ${DEMO_USERS.map((u) => u.email).join(', ')}`);
  return { password, generated: options.password === undefined };
}

async function seedStudies(
  ctx: AppContext,
  groups: Map<string, { uuid: string; namespaceId: string; accountId: string }>,
  options: { studies: number; nominations: boolean },
  now: number,
): Promise<{ nominations: string[]; toNominate: string[] }> {
  const count = options.studies;
  const nominations: string[] = [];
  const toNominate: string[] = [];
  const specs = generateStudySpecs(count, SEED, { now: new Date(now) });
  let index = 0;
  for (const { group, share } of STUDY_SPREAD) {
    const take = group === STUDY_SPREAD.at(-1)?.group ? specs.length - index : Math.round(count * share);
    for (const spec of specs.slice(index, index + take)) {
      // With real nominations, PACS Intake's share is received by the cloud groups nominating to it.
      const nominated = options.nominations && group === DEMO_GATEKEEPER.group;
      const home = nominated
        ? DEMO_GATEKEEPER.promotedFrom[index % DEMO_GATEKEEPER.promotedFrom.length]!
        : group;
      const target = groups.get(home)!;
      let studyUuid = '';
      for (const file of writeStudyFiles(spec)) {
        const temp = await ctx.services.blobs.writeTemp(file.bytes);
        const result = await ctx.services.ingest.ingestTemp(
          temp,
          { accountId: target.accountId, namespaceId: target.namespaceId, sourceAeTitle: 'DEMO_MODALITY' },
          { kind: 'seed', userId: null },
        );
        studyUuid = result.studyUuid;
      }
      // Spread upload times over the past weeks so "Newest upload" has a visible order.
      await ctx.repos.studies.update(studyUuid, {
        created: now - index * 7 * HOUR,
        star: index % 7 === 0 ? 1 : 0,
      });
      const waiting = await decorate(ctx, studyUuid, home, index, now);
      if (nominated) toNominate.push(studyUuid);
      else if (waiting) nominations.push(studyUuid);
      index++;
    }
  }
  return { nominations, toNominate };
}

const TAGS = ['follow-up', 'urgent', 'teaching', 'second-opinion'];
const PUSH_STATES = [null, 'I', 'S', 'F'] as const;

/**
 * Tags on some studies; gatekeeper studies spread over the nomination workflow states. Answers
 * whether the study is left a nomination (awaiting the gatekeeper).
 */
async function decorate(
  ctx: AppContext,
  studyUuid: string,
  group: string,
  index: number,
  now: number,
): Promise<boolean> {
  if (index % 3 === 0) await ctx.repos.tags.add(studyUuid, TAGS[index % TAGS.length]!);
  if (group !== 'intake') return false;
  const push = PUSH_STATES[index % PUSH_STATES.length] ?? null;
  await ctx.repos.studies.update(studyUuid, { must_approve: push ? 0 : 1, push_status: push });
  await ctx.repos.studies.setCustomFields(studyUuid, {
    nominated_at: new Date(now - index * HOUR).toISOString(),
    priority: index % 2 === 0 ? 'Routine' : 'Priority',
  });
  return push === null;
}

/**
 * PACS Archive: a second AE title of our own listener feeding the group, and the destination that
 * sends to it (this server's DICOM port on this machine, no sender registered: it never answers
 * C-MOVEs); answers the destination's uuid.
 */
/**
 * The offline PACS: a destination of PACS Intake at our own listener under
 * an AE title it does not answer to, so a push there fails the way a PACS that is down does.
 */
async function seedOfflinePacs(ctx: AppContext, accountId: string, now: number): Promise<string> {
  const uuid = newUuid();
  await ctx.repos.destinations.insertLocal({
    ...destinationRow(
      uuid,
      accountId,
      DEMO_OFFLINE_PACS.name,
      DEMO_OFFLINE_PACS.aeTitle,
      ctx.config.dicomPort,
    ),
    created: now,
    updated: now,
  });
  return uuid;
}

async function seedPacsArchive(
  ctx: AppContext,
  group: { uuid: string; accountId: string },
  now: number,
): Promise<string> {
  await ctx.repos.dicomNodes.insertLocalAe({
    ae_title: DEMO_PACS_ARCHIVE.aeTitle,
    account_id: group.accountId,
    group_uuid: group.uuid,
    name: DEMO_PACS_ARCHIVE.destinationName,
    created: now,
  });
  const uuid = newUuid();
  await ctx.repos.destinations.insertLocal({
    ...destinationRow(
      uuid,
      group.accountId,
      DEMO_PACS_ARCHIVE.destinationName,
      DEMO_PACS_ARCHIVE.aeTitle,
      ctx.config.dicomPort,
    ),
    created: now,
    updated: now,
  });
  return uuid;
}

/** A destination at this machine's DICOM port taking pushes, with no search and no echo timer. */
function destinationRow(uuid: string, accountId: string, name: string, aeTitle: string, port: number) {
  return {
    uuid,
    account_id: accountId,
    name,
    aetitle: aeTitle,
    address: '127.0.0.1',
    port,
    can_search: 0,
    can_search_mwl: 0,
    can_push: 1,
    c_echo_interval: null,
    last_echo_ok: null,
    last_echo_ms: null,
    last_echo_reason: null,
    last_echo_at: null,
  };
}
