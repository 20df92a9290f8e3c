import { randomUUID } from 'node:crypto';
import { MAX_SHARE_MESSAGE, PERSONAL_GROUP_NAME } from '@imaging-inbox/contract';
import type { ShareListAnswer, StudyShare } from '@imaging-inbox/contract';
import { invalidField, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { ShareTarget, SharesRepository } from './shares.repository.js';
import type { StudyRow } from '../../repositories/studies.repository.js';
import type { BlobCollector } from '../../storage/blob-collector.js';
import { auditEvent, type Actor, type AuditService } from '../../audit/audit.service.js';
import type { ShareMails, SharedEvent } from './share-notifier.js';

export interface ShareDeps {
  shares: SharesRepository;
  audit: AuditService;
  /** Removes blob files left unreferenced once a copy is gone. */
  collector: BlobCollector;
  /** The "shared with me" mails of a new share, queued in the share's transaction. */
  mailsFor?: (event: SharedEvent) => Promise<ShareMails>;
  /** Told of each new copy in a group once its share committed (routing, webhooks). */
  onShared?: (copyUuid: string) => Promise<void>;
  /** De-identifying groups (privacy's DeidentifiedCopies; declared here so sharing does not depend on privacy). */
  deidentified?: DeidentifyingGroups;
  now?: () => number;
}

/** What a share into a de-identifying group needs (issue 33, decision 0067). */
export interface DeidentifyingGroups {
  profileOfGroup(accountId: string, groupUuid: string): Promise<{ uuid: string; name: string } | undefined>;
  copyStudyUid(row: StudyRow, profileId: string): Promise<string>;
  copy(
    row: StudyRow,
    target: { namespaceId: string },
    profileId: string,
    by: { userId: string; ip?: string | null },
  ): Promise<{
    copyUuid: string;
    profile: { uuid: string; name: string };
    instances: number;
    refusedBurnedIn: number;
    refusedUnreadable: number;
    reportsLeftOut: number;
  }>;
}

/** What a share into a de-identifying group tells the caller: the copy made and what was left out. */
export interface DeidentifiedShare {
  profile: string;
  instances: number;
  refused_burned_in: number;
  refused_unreadable: number;
  reports_left_out: number;
}

/**
 * Sharing a study with users and groups of its own account. Either share copies the study's index
 * rows (source='share', share_message, shared_from), reusing the same blob files, into a namespace
 * the recipient sees through the ordinary namespace visibility:
 * - a group share into the group's namespace;
 * - a user share into the recipient's personal namespace (made on the first share with them),
 *   which only that user sees, as the cloud group PERSONAL_GROUP_NAME.
 * Stopping a share removes the copy, so search, study/get and downloads lose it at once.
 */
export class ShareService {
  private readonly now: () => number;
  constructor(private readonly deps: ShareDeps) {
    this.now = deps.now ?? Date.now;
  }

  private require(caller: Caller, row: StudyRow, type: 'user' | 'group'): void {
    const byType = type === 'user' ? 'study_share_user' : 'study_share_group';
    requireStudy(caller, row, { permissions: ['study_share', byType] });
  }

  async who(caller: Caller, row: StudyRow, type: string) {
    if (type !== 'user' && type !== 'group') throw invalidField('type', 'must be user or group');
    this.require(caller, row, type);
    if (type === 'user')
      return { users: await this.deps.shares.shareableUsers(row.account_id, caller.user.uuid) };
    const groups = await this.deps.shares.shareableGroups(row.account_id, row.namespace_id);
    return {
      groups: groups.map((g) => ({ uuid: g.uuid, name: g.name, namespace_id: g.namespace_id, type: g.type })),
    };
  }

  async share(
    caller: Caller,
    row: StudyRow,
    target: ShareTarget,
    rawMessage: string | undefined,
  ): Promise<{ deidentified?: DeidentifiedShare } | undefined> {
    this.require(caller, row, target.type);
    const message = rawMessage?.trim() || null;
    if (message && message.length > MAX_SHARE_MESSAGE) {
      throw invalidField('message', `at most ${MAX_SHARE_MESSAGE} characters`);
    }
    let copyInto: string;
    if (target.type === 'group') {
      const group = await this.deps.shares.group(row.account_id, target.id);
      if (!group) throw notFound('group');
      if (group.namespace_id === row.namespace_id)
        throw invalidField('group_id', 'the study is already in this group');
      copyInto = group.namespace_id;
      const profile = await this.deps.deidentified?.profileOfGroup(row.account_id, group.uuid);
      if (profile) return this.shareDeidentified(caller, row, target, copyInto, profile.uuid, message);
    } else {
      if (target.id === caller.user.uuid) throw invalidField('user_id', 'cannot share with yourself');
      // Users of other accounts look the same as made-up ids.
      if (!(await this.deps.shares.user(row.account_id, target.id))) throw notFound('user');
      copyInto = await this.deps.shares.personalNamespace(row.account_id, target.id, PERSONAL_GROUP_NAME);
      if (copyInto === row.namespace_id) throw invalidField('user_id', 'the study is already theirs');
    }

    const existing = await this.deps.shares.find(row.uuid, target);
    if (existing) {
      // Sharing again only refreshes the message: the recipient already has the study.
      await this.deps.shares.updateMessage(existing, message);
    } else {
      if (await this.deps.shares.uidTaken(copyInto, row.study_uid)) {
        throw invalidField(`${target.type}_id`, `the ${target.type} already holds this study`);
      }
      await this.create(row, target, copyInto, message, caller.user);
    }
    await this.deps.audit.record(
      shareEvent(caller, row, 'CREATE', target, { message, again: existing !== undefined }),
    );
  }

  /**
   * A share into a de-identifying group: the copy is a de-identified study of its own (new UIDs,
   * pseudonymous patient), made through the ingest pipeline; sharing again only refreshes the
   * message. The group holding the copy already (the same source gives the same UIDs) is refused.
   */
  private async shareDeidentified(
    caller: Caller,
    row: StudyRow,
    target: ShareTarget,
    copyInto: string,
    profileId: string,
    message: string | null,
  ): Promise<{ deidentified?: DeidentifiedShare }> {
    const deidentified = this.deps.deidentified!;
    const existing = await this.deps.shares.find(row.uuid, target);
    let answer: DeidentifiedShare | undefined;
    if (existing) {
      await this.deps.shares.updateMessage(existing, message);
    } else {
      if (await this.deps.shares.uidTaken(copyInto, await deidentified.copyStudyUid(row, profileId)))
        throw invalidField('group_id', 'the group already holds this study');
      const copy = await deidentified.copy(row, { namespaceId: copyInto }, profileId, {
        userId: caller.user.uuid,
        ip: caller.ip,
      });
      await this.create(row, target, copyInto, message, caller.user, copy.copyUuid);
      answer = {
        profile: copy.profile.name,
        instances: copy.instances,
        refused_burned_in: copy.refusedBurnedIn,
        refused_unreadable: copy.refusedUnreadable,
        reports_left_out: copy.reportsLeftOut,
      };
    }
    await this.deps.audit.record(
      shareEvent(caller, row, 'CREATE', target, {
        message,
        again: existing !== undefined,
        deidentified: { profile: profileId, ...answer },
      }),
    );
    return answer ? { deidentified: answer } : {};
  }

  /**
   * A routing rule's "share to a group": the study copied into a group of its account on behalf of
   * the rule's author (`by`), without their own permissions being asked, as the admin who wrote the
   * rule allowed it. Answers the copy, or null when the group already holds the study.
   */
  async shareByRule(
    row: StudyRow,
    groupId: string,
    by: { uuid: string; name: string },
    detail: Record<string, unknown>,
    /** The rule's own profile (decision 0071): the copy is de-identified by it unless the group has one. */
    ruleProfile?: string,
  ): Promise<string | null> {
    const group = await this.deps.shares.group(row.account_id, groupId);
    if (!group) throw notFound('group');
    const target: ShareTarget = { type: 'group', id: group.uuid };
    // A de-identifying group takes a rule's share de-identified too, by its own profile (a rule
    // cannot weaken it); else the rule's profile, if it names one: nothing reaches it identified.
    const profile =
      (await this.deps.deidentified?.profileOfGroup(row.account_id, group.uuid)) ??
      (ruleProfile ? { uuid: ruleProfile } : undefined);
    if (profile && !this.deps.deidentified) throw notFound('anonymization');
    const copyUid = profile ? await this.deps.deidentified!.copyStudyUid(row, profile.uuid) : row.study_uid;
    if (
      group.namespace_id === row.namespace_id ||
      (await this.deps.shares.find(row.uuid, target)) ||
      (await this.deps.shares.uidTaken(group.namespace_id, copyUid))
    ) {
      return null;
    }
    const made = profile
      ? await this.deps.deidentified!.copy(row, { namespaceId: group.namespace_id }, profile.uuid, {
          userId: by.uuid,
        })
      : undefined;
    if (made) detail = { ...detail, deidentified: { profile: profile!.uuid, instances: made.instances } };
    const copy = await this.create(row, target, group.namespace_id, null, by, made?.copyUuid);
    await this.deps.audit.record(
      shareEvent({ userId: by.uuid }, row, 'CREATE', target, { message: null, again: false, ...detail }),
    );
    return copy;
  }

  /** Records a new share (and its copy and mails, in one transaction); answers the copy's uuid. */
  private async create(
    row: StudyRow,
    target: ShareTarget,
    copyInto: string,
    message: string | null,
    by: { uuid: string; name: string },
    /** A copy already made (a de-identified one): recorded as the share's copy instead of copying the rows. */
    madeCopy?: string,
  ): Promise<string | null> {
    const share = {
      uuid: randomUUID(),
      study_uuid: row.uuid,
      account_id: row.account_id,
      target_type: target.type,
      target_id: target.id,
      message,
      created_by: by.uuid,
      created: this.now(),
    };
    // Sharing again only refreshes the message, so only a new share is mailed about.
    const mails = await this.deps.mailsFor?.({
      study: row,
      target,
      message,
      sharedBy: { uuid: by.uuid, name: by.name },
    });
    let copyUuid: string | null = null;
    const into = madeCopy ? { made: madeCopy, namespaceId: copyInto } : copyInto;
    await this.deps.shares.create(share, row, into, share.created, async (trx, copy) => {
      copyUuid = copy;
      await mails?.queue(trx, copy);
    });
    mails?.kick();
    // A copy in a group is a study arriving there: its routing rules and webhooks hear of it.
    if (copyUuid && target.type === 'group') await this.deps.onShared?.(copyUuid);
    return copyUuid;
  }

  async list(row: StudyRow): Promise<Pick<ShareListAnswer, 'shares'>> {
    const rows = await this.deps.shares.list(row.uuid);
    return {
      shares: rows.map((r) => ({
        uuid: r.target_id,
        type: r.target_type as StudyShare['type'],
        name: (r.target_type === 'user' ? r.user_name : r.group_name) ?? '',
        ...(r.user_email ? { user_email: r.user_email } : {}),
        message: r.message,
        created: Number(r.created),
      })),
    };
  }

  async stop(caller: Caller, row: StudyRow, target: ShareTarget): Promise<void> {
    this.require(caller, row, target.type);
    const share = await this.deps.shares.find(row.uuid, target);
    if (!share) throw notFound('share');
    const keys = await this.deps.shares.remove(share);
    // The original normally still references every blob; this matters once it has been purged.
    await this.deps.collector.removeUnreferenced(keys);
    await this.deps.audit.record(shareEvent(caller, row, 'DELETE', target));
  }
}

/** A share of a study made or stopped: its events name the study and, first in the detail, the target. */
function shareEvent(
  actor: Actor,
  row: StudyRow,
  action: 'CREATE' | 'DELETE',
  target: ShareTarget,
  more: Record<string, unknown> = {},
) {
  const detail = { target_type: target.type, target_id: target.id, ...more };
  return auditEvent(actor, row.account_id, action, { type: 'share', id: row.uuid }, { detail });
}
