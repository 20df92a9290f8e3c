import type { StudyPushAttempt } from '@imaging-inbox/contract';
import { DomainError, invalidField, notFound } from '../../domain/errors.js';
import { PUSH_JOB } from '../../jobs/job-kinds.js';
import type { JobQueue } from '../../jobs/job-queue.js';
import type { Caller } from '../../policies/index.js';
import { requireStudy } from '../../policies/index.js';
import type { StudiesRepository, StudyRow } from '../../repositories/studies.repository.js';
import type { StudyPushesRepository, StudyPushListed } from './study-pushes.repository.js';
import { studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { DestinationService } from './destination.service.js';
import type { DestinationRow } from './destinations.repository.js';
import { newUuid } from '../../security/tokens.js';
import type { PushProfiles } from './push-profiles.js';

interface Deps {
  pushes: StudyPushesRepository;
  studies: StudiesRepository;
  destinations: DestinationService;
  jobs: JobQueue;
  audit: AuditService;
  /** The account's de-identification profiles (privacy's Deidentifier; decision 0071). */
  profiles?: PushProfiles | undefined;
  now?: () => number;
}

/**
 * Push to PACS: each study/push is an attempt (a row with status I → N → S, P or F) run by a
 * durable job (pacs/push-job.ts). A push while the same study is still queued or sending to the
 * same destination answers PENDING. A push after a partial or failed attempt is the Retry: it sends
 * only what the last attempt did not store.
 */
export class StudyPushService {
  private readonly now: () => number;

  constructor(private readonly deps: Deps) {
    this.now = deps.now ?? Date.now;
  }

  /**
   * `profileId`: a de-identification profile of the account to apply (decision 0071). A destination
   * that names its own applies it to every push, and takes no other: a pusher cannot weaken it.
   */
  async push(
    caller: Caller,
    studyUuid: string,
    destinationId: string,
    profileId?: string,
  ): Promise<StudyPushAttempt> {
    const study = await this.pushable(caller, studyUuid);
    const destination = await this.deps.destinations.usable(caller, destinationId);
    if (profileId && destination.anonymization_id && profileId !== destination.anonymization_id)
      throw invalidField('anonymization_id', 'the destination de-identifies with a profile of its own');
    return this.queue(study, destination, { userId: caller.user.uuid, ip: caller.ip }, profileId);
  }

  /**
   * A routing rule's "send to a destination": the same attempt and push job, on behalf of the
   * rule's author (`userId`), as the admin who wrote the rule allowed it.
   */
  async pushByRule(
    study: StudyRow,
    destinationId: string,
    userId: string,
    detail: Record<string, unknown>,
  ): Promise<StudyPushAttempt> {
    const destination = await this.deps.destinations.find(destinationId);
    if (!destination) throw notFound('destination');
    return this.queue(study, destination, { userId, ip: null, detail });
  }

  /** Records an attempt of pushing the study (or what the last partial one missed) and queues its job. */
  private async queue(
    study: StudyRow,
    destination: DestinationRow,
    by: { userId: string; ip: string | null; detail?: Record<string, unknown> },
    requestedProfile?: string,
  ): Promise<StudyPushAttempt> {
    if (destination.account_id !== study.account_id) throw notFound('destination');
    if (Number(destination.can_push) !== 1)
      throw invalidField('destination_id', 'this destination takes no pushes');
    const profile = await this.profileOf(study.account_id, requestedProfile ?? destination.anonymization_id);
    const latest = await this.deps.pushes.latest(study.uuid, destination.uuid);
    if (latest && (latest.status === 'I' || latest.status === 'N')) {
      throw new DomainError('PENDING', 'push', { uuid: latest.uuid });
    }
    let instances = await this.deps.pushes.instancesOfStudy(study.uuid);
    if (!instances.length) throw invalidField('uuid', 'the study has no instances');
    // The Retry sends only what the last attempt missed when it sent the same copies (same profile).
    if (
      latest &&
      (latest.status === 'P' || latest.status === 'F') &&
      (latest.anonymization_id ?? null) === (profile?.uuid ?? null)
    ) {
      const stored = await this.deps.pushes.storedBy(latest.uuid);
      const missing = instances.filter((i) => !stored.has(i.sop_instance_uid));
      if (missing.length) instances = missing;
    }
    const now = this.now();
    const push = {
      uuid: newUuid(),
      study_uuid: study.uuid,
      account_id: study.account_id,
      destination_id: destination.uuid,
      destination_name: destination.name,
      user_id: by.userId,
      status: 'I',
      reason: null,
      image_count: instances.length,
      anonymization_id: profile?.uuid ?? null,
      anonymization_name: profile?.name ?? null,
      created: now,
      updated: now,
    };
    await this.deps.pushes.insert(push, instances);
    await this.deps.jobs.enqueue(
      PUSH_JOB,
      { push: push.uuid, destination: destination.uuid },
      { dedupeKey: `push:${push.uuid}` },
    );
    this.deps.jobs.kick();
    await this.deps.audit.record(
      studyEvent(by, study, 'PUSH', {
        push: push.uuid,
        destination_id: destination.uuid,
        destination_name: destination.name,
        study_uid: study.study_uid,
        images: instances.length,
        retry_of: latest && latest.status !== 'S' ? latest.uuid : null,
        ...(profile ? { deidentified: { profile: profile.uuid, name: profile.name } } : {}),
        ...by.detail,
      }),
    );
    return presentPush({ ...push, images_sent: 0, images_failed: 0, images_refused_burned_in: 0 });
  }

  /** The account's profile a push applies, or INVALID_FIELD anonymization_id (another account's included). */
  private async profileOf(
    accountId: string,
    profileId: string | null | undefined,
  ): Promise<{ uuid: string; name: string } | undefined> {
    if (!profileId) return undefined;
    if (!this.deps.profiles) throw invalidField('anonymization_id', 'de-identification is not available');
    return (await this.deps.profiles.bind(accountId, profileId, 'anonymization_id')).profile;
  }

  /** Every push attempt of a study, newest first (anyone who sees the study sees its push history). */
  async list(caller: Caller, studyUuid: string): Promise<StudyPushAttempt[]> {
    const study = requireStudy(caller, await this.deps.studies.findByUuid(studyUuid));
    return ((await this.deps.pushes.ofStudies([study.uuid])).get(study.uuid) ?? []).map(presentPush);
  }

  /** The study, if the caller may push it (study_push on it, so not a deleted one). */
  private async pushable(caller: Caller, studyUuid: string): Promise<StudyRow> {
    return requireStudy(caller, await this.deps.studies.findByUuid(studyUuid), {
      permissions: ['study_push'],
    });
  }
}

export function presentPush(row: StudyPushListed): StudyPushAttempt {
  return {
    uuid: row.uuid,
    destination_id: row.destination_id,
    destination_name: row.destination_name,
    status: row.status as StudyPushAttempt['status'],
    reason: row.reason,
    image_count: Number(row.image_count),
    images_sent: row.images_sent,
    images_failed: row.images_failed,
    ...(row.anonymization_id
      ? {
          deidentified: {
            profile: row.anonymization_name ?? '',
            refused_burned_in: row.images_refused_burned_in,
          },
        }
      : {}),
    created: Number(row.created),
    updated: Number(row.updated),
  };
}
