import { randomUUID } from 'node:crypto';
import {
  MAX_NOMINATION_ANSWER,
  type Nomination,
  type NominationAnswer,
  type NominationStatus,
  type StudyNominateRequest,
} from '@imaging-inbox/contract';
import { DomainError, invalidField, missingFields, notFound } from '../../domain/errors.js';
import type { Caller } from '../../policies/index.js';
import { requireGatekeeperDecision, requireNominationOwner, requireNominator } from './nominations.js';
import { requireStudy } from '../../policies/index.js';
import type { GroupConfigsRepository } from '../admin/index.js';
import type { NominationListed, NominationsRepository } from './nominations.repository.js';
import type { NominationShares } from './nomination-ports.js';
import type { StudiesRepository } from '../../repositories/studies.repository.js';
import type { BlobCollector } from '../../storage/blob-collector.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { GroupConfigService } from '../admin/index.js';
import type { NominationNotifier } from './nomination-notifier.js';

interface Deps {
  nominations: NominationsRepository;
  studies: StudiesRepository;
  shares: NominationShares;
  groups: GroupConfigsRepository;
  configs: GroupConfigService;
  collector: BlobCollector;
  audit: AuditService;
  /** The 'nominated to gatekeeper groups' mails; none when absent. */
  notifier?: Pick<NominationNotifier, 'prepare'>;
  /** Told of a nomination and of a rejection, on the nominator's study, once recorded (webhooks). */
  onEvent?: (
    event: 'study_nominated' | 'study_rejected',
    studyUuid: string,
    detail: Record<string, unknown>,
  ) => Promise<void>;
  now?: () => number;
}

/**
 * Nominating a cloud group's study to a gatekeeper group (SPEC.md section 4, Nomination). Nominating
 * records the submission and shares the study into the gatekeeper group as a nomination (its copy
 * has must_approve=1, nominated_at and priority for the list's sorts), all in one transaction;
 * cancelling stops that share. The nominator reads the status (study/nomination) from the record
 * and the copy's workflow state.
 */
export class NominationService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  async nominate(caller: Caller, input: StudyNominateRequest): Promise<Nomination> {
    const promoteTo = async (namespaceId: string) => {
      const group = caller.groups.get(namespaceId);
      return group?.type === 'CLOUD' ? (await this.deps.configs.cloud(group.groupId)).promoteTo : [];
    };
    const study = await requireNominator(
      caller,
      await this.deps.studies.findByUuid(input.uuid),
      promoteTo,
      input.gatekeeperId,
    );
    const gatekeeper = await this.deps.groups.group(input.gatekeeperId);
    if (!gatekeeper || gatekeeper.account_id !== study.account_id || gatekeeper.type !== 'GATEKEEPER') {
      throw notFound('gatekeeper');
    }
    const config = await this.deps.configs.gatekeeper(gatekeeper.uuid);
    if (!config) throw invalidField('gatekeeper_id', 'PACS form not configured');
    const answers = checkAnswers(config.customFields, input.answers);
    if (await this.deps.nominations.live(study.uuid, gatekeeper.uuid)) {
      throw new DomainError('ALREADY_NOMINATED', 'gatekeeper_id');
    }
    if (await this.deps.shares.uidTaken(gatekeeper.namespace_id, study.study_uid)) {
      throw new DomainError('ALREADY_NOMINATED', 'gatekeeper_id');
    }
    const now = this.now();
    const source = caller.groups.get(study.namespace_id)?.name ?? '';
    const row = {
      uuid: randomUUID(),
      study_uuid: study.uuid,
      account_id: study.account_id,
      gatekeeper_id: gatekeeper.uuid,
      gatekeeper_name: gatekeeper.name,
      source,
      submitted: 1,
      rejected: 0,
      rejection_reason: null,
      rejection_message: null,
      answers: JSON.stringify(answers),
      nominated_by: caller.user.uuid,
      created: now,
      updated: now,
    };
    const share = {
      uuid: randomUUID(),
      study_uuid: study.uuid,
      account_id: study.account_id,
      target_type: 'group',
      target_id: gatekeeper.uuid,
      message: null,
      created_by: caller.user.uuid,
      created: now,
    };
    const sortFields = {
      nominated_at: new Date(now).toISOString(),
      priority: answers['priority'] ?? 'Routine',
    };
    // Recorded with its audit event in the share's transaction: no share without its nomination.
    const audit = this.deps.audit.row(
      studyEvent(caller, study, 'NOMINATE', {
        nomination: row.uuid,
        gatekeeper_id: gatekeeper.uuid,
        gatekeeper_name: gatekeeper.name,
        answers,
      }),
    );
    const mails = await this.deps.notifier?.prepare({
      gatekeeper,
      source,
      nominatedBy: { uuid: caller.user.uuid, name: caller.user.name },
      priority: sortFields.priority,
    });
    await this.deps.shares.create(share, study, gatekeeper.namespace_id, now, async (trx, copyUuid) => {
      await this.deps.nominations.recordIn(trx, row, copyUuid!, sortFields, audit);
      await mails?.queue(trx, copyUuid!);
    });
    mails?.kick();
    const [listed] = await this.deps.nominations.ofStudy(study.uuid);
    await this.deps.onEvent?.('study_nominated', study.uuid, {
      nomination: row.uuid,
      gatekeeper_id: gatekeeper.uuid,
      gatekeeper_name: gatekeeper.name,
    });
    return presentNomination(listed!);
  }

  /** study/nominate/cancel: the nominator stops the live nomination (not one already processed). */
  async cancel(caller: Caller, studyUuid: string): Promise<void> {
    const study = requireNominationOwner(caller, await this.deps.studies.findByUuid(studyUuid));
    const live = (await this.deps.nominations.ofStudy(study.uuid)).find((n) => Number(n.submitted) === 1);
    if (!live || !live.copy_uuid) throw notFound('nomination');
    if (Number(live.rejected) === 1 || Number(live.must_approve) !== 1) {
      throw new DomainError('ALREADY_PROCESSED', 'nomination');
    }
    const share = await this.deps.shares.find(study.uuid, { type: 'group', id: live.gatekeeper_id });
    if (share) await this.deps.collector.removeUnreferenced(await this.deps.shares.remove(share));
    await this.deps.nominations.cancelled(live.uuid, this.now());
    await this.deps.audit.record(
      studyEvent(caller, study, 'NOMINATE_CANCEL', {
        nomination: live.uuid,
        gatekeeper_id: live.gatekeeper_id,
        gatekeeper_name: live.gatekeeper_name,
      }),
    );
  }

  /**
   * study/reject: the gatekeeper rejects a nomination still waiting (its copy in Nominations) with a
   * reason and a message; the copy and the nominator's study both carry them.
   */
  async reject(caller: Caller, copyUuid: string, reason: string, message: string): Promise<Nomination> {
    const copy = requireGatekeeperDecision(caller, await this.deps.studies.findByUuid(copyUuid));
    const nomination = await this.deps.nominations.ofCopy(copy.uuid);
    if (!nomination) throw notFound('nomination');
    if (Number(nomination.rejected) === 1 || Number(nomination.must_approve) !== 1) {
      throw new DomainError('ALREADY_PROCESSED', 'nomination');
    }
    const detail = {
      nomination: nomination.uuid,
      gatekeeper_name: nomination.gatekeeper_name,
      reason,
      message,
    };
    const audit = (objectId: string) =>
      this.deps.audit.row(
        studyEvent(caller, { uuid: objectId, account_id: copy.account_id }, 'REJECT', detail),
      );
    await this.deps.nominations.reject(nomination, copy.uuid, reason, message, this.now(), [
      audit(copy.uuid),
      audit(nomination.study_uuid),
    ]);
    await this.deps.onEvent?.('study_rejected', nomination.study_uuid, detail);
    return presentNomination((await this.deps.nominations.ofCopy(copy.uuid))!);
  }

  /**
   * study/nomination: for the nominator's study, its latest nomination and history; for a
   * gatekeeper's copy, the nomination it came from. Anyone who sees the study reads it.
   */
  async status(caller: Caller, studyUuid: string): Promise<Omit<NominationAnswer, 'status'>> {
    const study = requireStudy(caller, await this.deps.studies.findByUuid(studyUuid));
    const asCopy = await this.deps.nominations.ofCopy(study.uuid);
    const history = asCopy ? [asCopy] : await this.deps.nominations.ofStudy(study.uuid);
    const presented = history.map(presentNomination);
    return { nomination: presented[0] ?? null, history: presented };
  }
}

/**
 * The form's answers as the gatekeeper's configuration allows: every required field answered
 * (MISSING_FIELDS naming them), no field it does not have, choices among its options.
 */
function checkAnswers(
  fields: readonly { name: string; required: boolean; options?: string[] | undefined }[],
  answers: Record<string, string>,
): Record<string, string> {
  const known = new Map(fields.map((f) => [f.name, f]));
  for (const [name, value] of Object.entries(answers)) {
    const field = known.get(name);
    if (!field) throw invalidField(`customfield-${name}`, 'not a field of this nomination form');
    if (value.length > MAX_NOMINATION_ANSWER) {
      throw invalidField(`customfield-${name}`, `at most ${MAX_NOMINATION_ANSWER} characters`);
    }
    if (value && field.options?.length && !field.options.includes(value)) {
      throw invalidField(`customfield-${name}`, `one of ${field.options.join(', ')}`);
    }
  }
  const missing = fields.filter((f) => f.required && !answers[f.name]).map((f) => `customfield-${f.name}`);
  if (missing.length) throw missingFields(missing);
  return Object.fromEntries(Object.entries(answers).filter(([, v]) => v !== ''));
}

/** The nominator's panel state (SPEC.md section 4). */
function statusOf(row: NominationListed): NominationStatus {
  if (Number(row.submitted) !== 1) return 'NOT_NOMINATED';
  if (Number(row.rejected) === 1) return 'REJECTED';
  if (row.push_status === 'S') return 'NOMINATION_SUCCESS';
  // Accepted by study/process, its writing and queueing not done yet (or cut by a crash, until the
  // recovery job finishes it): not waiting for a decision any more.
  if (Number(row.must_approve) === 1)
    return row.process && row.processed_at === null ? 'PROCESSING' : 'IS_NOMINATED';
  // Processed: queued, sending, or a failed push the gatekeeper may retry.
  return 'EVALUATING';
}

export function presentNomination(row: NominationListed): Nomination {
  return {
    uuid: row.uuid,
    study_uuid: row.study_uuid,
    copy_uuid: row.copy_uuid,
    gatekeeper_id: row.gatekeeper_id,
    gatekeeper_name: row.gatekeeper_name,
    submitted: Number(row.submitted) === 1,
    source: row.source,
    nominated_by: row.nominated_by,
    submitted_at: new Date(Number(row.created)).toISOString(),
    rejected: Number(row.rejected) === 1,
    rejection_reason: row.rejection_reason,
    rejection_message: row.rejection_message,
    push_status: row.push_status === 'R' ? null : row.push_status,
    answers: JSON.parse(row.answers) as Record<string, string>,
    status: statusOf(row),
  };
}
