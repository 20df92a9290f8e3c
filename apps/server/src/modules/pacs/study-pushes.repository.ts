import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, StudyPushInstanceTable, StudyPushTable } from '../../db/schema.js';
import { InListTemplate } from '../../db/in-list-template.js';
import { BURNED_IN_REFUSAL } from './push-profiles.js';

export type StudyPushRow = Selectable<StudyPushTable>;
export type PushInstanceRow = Selectable<StudyPushInstanceTable>;

/** A push attempt with its instance counts. */
export interface StudyPushListed extends StudyPushRow {
  images_sent: number;
  images_failed: number;
  /** Instances a de-identified attempt left out because they may show burned-in text. */
  images_refused_burned_in: number;
}

/** What an instance of the study is, as a push needs it. */
export interface PushableInstance {
  sop_instance_uid: string;
  blob_key: string;
  sop_class_uid: string;
  transfer_syntax: string;
}

/** Push attempts of studies to destinations, and each instance's outcome within an attempt. */
export class StudyPushesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The study's live instances, as stored. */
  instancesOfStudy(studyUuid: string): Promise<PushableInstance[]> {
    return this.db
      .selectFrom('instances')
      .select(['sop_instance_uid', 'blob_key', 'sop_class_uid', 'transfer_syntax'])
      .where('study_uuid', '=', studyUuid)
      .orderBy('sop_instance_uid')
      .execute();
  }

  /** The latest attempt of this study to this destination. */
  latest(studyUuid: string, destinationId: string): Promise<StudyPushRow | undefined> {
    return this.db
      .selectFrom('study_pushes')
      .selectAll()
      .where('study_uuid', '=', studyUuid)
      .where('destination_id', '=', destinationId)
      .orderBy('created', 'desc')
      .orderBy('uuid', 'desc')
      .executeTakeFirst();
  }

  /** SOP Instance UIDs an attempt stored at the destination. */
  async storedBy(pushId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('study_push_instances')
      .select('sop_instance_uid')
      .where('push_id', '=', pushId)
      .where('state', '=', 'stored')
      .execute();
    return new Set(rows.map((r) => r.sop_instance_uid));
  }

  /**
   * The instances of an attempt its PACS acknowledged storing (what a storage commitment names), by
   * the UID the PACS received (a de-identified push's own, decision 0071).
   */
  stored(pushId: string): Promise<{ sop_class_uid: string; sop_instance_uid: string }[]> {
    return this.db
      .selectFrom('study_push_instances')
      .select((eb) => [
        'sop_class_uid',
        eb.fn.coalesce('sent_uid', 'sop_instance_uid').as('sop_instance_uid'),
      ])
      .where('push_id', '=', pushId)
      .where('state', '=', 'stored')
      .orderBy('sop_instance_uid')
      .execute();
  }

  /** Adds an attempt with its instances, all pending, and sets the study's push status, in one transaction. */
  async insert(push: Insertable<StudyPushTable>, instances: PushableInstance[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('study_pushes').values(push).execute();
      for (let i = 0; i < instances.length; i += 200) {
        await trx
          .insertInto('study_push_instances')
          .values(
            instances
              .slice(i, i + 200)
              .map((x) => ({ ...x, push_id: push.uuid, state: 'pending', reason: null })),
          )
          .execute();
      }
      await trx
        .updateTable('studies')
        .set({ push_status: push.status })
        .where('uuid', '=', push.study_uuid)
        .execute();
    });
  }

  find(uuid: string): Promise<StudyPushRow | undefined> {
    return this.db.selectFrom('study_pushes').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** Instances of the attempt not stored yet and not refused for good. */
  pending(pushId: string): Promise<PushInstanceRow[]> {
    return this.db
      .selectFrom('study_push_instances')
      .selectAll()
      .where('push_id', '=', pushId)
      .where('state', '=', 'pending')
      .orderBy('sop_instance_uid')
      .execute();
  }

  async recordInstance(
    pushId: string,
    sopInstanceUid: string,
    outcome: { state: 'pending' | 'stored' | 'failed'; reason: string | null; sentUid?: string | null },
  ): Promise<void> {
    await this.db
      .updateTable('study_push_instances')
      .set((eb) => ({
        state: outcome.state,
        reason: outcome.reason,
        tries: eb('tries', '+', 1),
        ...(outcome.sentUid !== undefined ? { sent_uid: outcome.sentUid } : {}),
      }))
      .where('push_id', '=', pushId)
      .where('sop_instance_uid', '=', sopInstanceUid)
      .execute();
  }

  /** The attempt's status (and the study's, which shows the latest attempt's). */
  async setStatus(push: StudyPushRow, status: string, reason: string | null, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('study_pushes')
        .set({ status, reason, updated: now })
        .where('uuid', '=', push.uuid)
        .execute();
      const latest = await trx
        .selectFrom('study_pushes')
        .select('uuid')
        .where('study_uuid', '=', push.study_uuid)
        .orderBy('created', 'desc')
        .orderBy('uuid', 'desc')
        .executeTakeFirst();
      if (latest?.uuid === push.uuid) {
        await trx
          .updateTable('studies')
          .set({ push_status: status })
          .where('uuid', '=', push.study_uuid)
          .execute();
      }
    });
  }

  async counts(pushId: string): Promise<{ stored: number; failed: number; pending: number }> {
    const rows = await this.db
      .selectFrom('study_push_instances')
      .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
      .where('push_id', '=', pushId)
      .groupBy('state')
      .execute();
    const of = (state: string) => Number(rows.find((r) => r.state === state)?.n ?? 0);
    return { stored: of('stored'), failed: of('failed'), pending: of('pending') };
  }

  /** Every attempt of these studies, newest first, with their instance counts. */
  ofStudies(studyUuids: string[]): Promise<Map<string, StudyPushListed[]>> {
    return pushesOfStudies(this.db, studyUuids);
  }

  /** The same for a page of study answers, compiled once per page length (every study/list reads it). */
  async ofPage(studyUuids: readonly string[]): Promise<Map<string, StudyPushListed[]>> {
    if (!studyUuids.length) return new Map();
    return pushesByStudy(await this.pageTemplate.execute(this.db, studyUuids));
  }

  private readonly pageTemplate = new InListTemplate((uuids) => pushesOfStudiesQuery(this.db, uuids));
}

/** Every push attempt of these studies, newest first, with their instance counts (also for study answers). */
export async function pushesOfStudies(
  db: Kysely<Database>,
  studyUuids: readonly string[],
): Promise<Map<string, StudyPushListed[]>> {
  if (!studyUuids.length) return new Map();
  return pushesByStudy(await pushesOfStudiesQuery(db, studyUuids).execute());
}

/** The query of pushesOfStudies, for callers that compile it once (db/in-list-template.ts). */
export function pushesOfStudiesQuery(db: Kysely<Database>, studyUuids: readonly string[]) {
  return db
    .selectFrom('study_pushes')
    .selectAll('study_pushes')
    .select((eb) => [
      eb
        .selectFrom('study_push_instances')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('study_push_instances.push_id', '=', 'study_pushes.uuid')
        .where('study_push_instances.state', '=', 'stored')
        .as('images_sent'),
      eb
        .selectFrom('study_push_instances')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('study_push_instances.push_id', '=', 'study_pushes.uuid')
        .where('study_push_instances.state', '=', 'failed')
        .as('images_failed'),
      eb
        .selectFrom('study_push_instances')
        .select((e) => e.fn.countAll<number>().as('n'))
        .whereRef('study_push_instances.push_id', '=', 'study_pushes.uuid')
        .where('study_push_instances.state', '=', 'failed')
        .where('study_push_instances.reason', '=', BURNED_IN_REFUSAL)
        .as('images_refused_burned_in'),
    ])
    .where('study_uuid', 'in', studyUuids)
    .orderBy('created', 'desc')
    .orderBy('uuid', 'desc');
}

/** The rows of pushesOfStudiesQuery by study, newest first. */
export function pushesByStudy(
  rows: (StudyPushRow & {
    images_sent: number | string | null;
    images_failed: number | string | null;
    images_refused_burned_in: number | string | null;
  })[],
): Map<string, StudyPushListed[]> {
  const out = new Map<string, StudyPushListed[]>();
  for (const r of rows) {
    const listed = {
      ...r,
      images_sent: Number(r.images_sent ?? 0),
      images_failed: Number(r.images_failed ?? 0),
      images_refused_burned_in: Number(r.images_refused_burned_in ?? 0),
    };
    const list = out.get(r.study_uuid);
    if (list) list.push(listed);
    else out.set(r.study_uuid, [listed]);
  }
  return out;
}
