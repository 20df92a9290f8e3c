import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditEventTable, Database, NominationTable } from '../../db/schema.js';
import { InListTemplate } from '../../db/in-list-template.js';

export type NominationRow = Selectable<NominationTable>;
/** A nomination with its gatekeeper copy's workflow state (absent once cancelled). */
export type NominationListed = NominationRow & { must_approve: number | null; push_status: string | null };

/** Nominations of studies to gatekeeper groups, and the workflow marks on the gatekeeper's copy. */
export class NominationsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  private listed() {
    return this.db
      .selectFrom('nominations')
      .leftJoin('studies', 'studies.uuid', 'nominations.copy_uuid')
      .selectAll('nominations')
      .select(['studies.must_approve', 'studies.push_status']);
  }

  /** Every nomination of a study (the nominator's), newest first. */
  ofStudy(studyUuid: string): Promise<NominationListed[]> {
    return this.listed()
      .where('nominations.study_uuid', '=', studyUuid)
      .orderBy('nominations.created', 'desc')
      .orderBy('nominations.uuid', 'desc')
      .execute();
  }

  /**
   * The live nominations (submitted, not rejected) of a page of studies, newest first, with their
   * copy's push status; compiled once per page length (every study/list reads it).
   */
  liveOfPage(studyUuids: readonly string[]) {
    return this.liveTemplate.execute(this.db, studyUuids);
  }

  private readonly liveTemplate = new InListTemplate((uuids) =>
    this.db
      .selectFrom('nominations')
      .innerJoin('studies as copies', 'copies.uuid', 'nominations.copy_uuid')
      .select(['nominations.study_uuid', 'nominations.created', 'copies.push_status'])
      .where('nominations.study_uuid', 'in', uuids)
      .where('nominations.submitted', '=', 1)
      .where('nominations.rejected', '=', 0)
      .orderBy('nominations.created', 'desc'),
  );

  /** The nomination whose gatekeeper copy this is. */
  ofCopy(copyUuid: string): Promise<NominationListed | undefined> {
    return this.listed().where('nominations.copy_uuid', '=', copyUuid).executeTakeFirst();
  }

  find(uuid: string): Promise<NominationListed | undefined> {
    return this.listed().where('nominations.uuid', '=', uuid).executeTakeFirst();
  }

  /** The live (submitted) nomination of a study to a gatekeeper group. */
  live(studyUuid: string, gatekeeperId: string): Promise<NominationRow | undefined> {
    return this.db
      .selectFrom('nominations')
      .selectAll()
      .where('study_uuid', '=', studyUuid)
      .where('gatekeeper_id', '=', gatekeeperId)
      .where('submitted', '=', 1)
      .executeTakeFirst();
  }

  /**
   * In the share's transaction: records the nomination and marks the gatekeeper's copy a
   * nomination (must_approve=1, no push yet) with the fields its list sorts by.
   */
  async recordIn(
    trx: Kysely<Database>,
    row: Insertable<NominationTable>,
    copyUuid: string,
    fields: Record<string, string>,
    audit: Insertable<AuditEventTable>,
  ): Promise<void> {
    await trx
      .insertInto('nominations')
      .values({ ...row, copy_uuid: copyUuid })
      .execute();
    await trx
      .updateTable('studies')
      .set({ must_approve: 1, push_status: null })
      .where('uuid', '=', copyUuid)
      .execute();
    for (const [name, value] of Object.entries(fields)) {
      await trx.insertInto('study_customfields').values({ study_uuid: copyUuid, name, value }).execute();
    }
    await trx.insertInto('audit_events').values(audit).execute();
  }

  /** Cancelled: no longer submitted, and its copy (removed with the share) no longer named. */
  async cancelled(uuid: string, now: number): Promise<void> {
    await this.db
      .updateTable('nominations')
      .set({ submitted: 0, copy_uuid: null, updated: now })
      .where('uuid', '=', uuid)
      .execute();
  }

  /**
   * Rejected, in one transaction: the nomination, its copy (out of Nominations: must_approve=0 and
   * push status R) and both studies' rejection fields, with the audit events of both.
   */
  async reject(
    nomination: NominationRow,
    copyUuid: string,
    reason: string,
    message: string,
    now: number,
    audits: Insertable<AuditEventTable>[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('nominations')
        .set({ rejected: 1, rejection_reason: reason, rejection_message: message, updated: now })
        .where('uuid', '=', nomination.uuid)
        .execute();
      await trx
        .updateTable('studies')
        .set({ must_approve: 0, push_status: 'R', updated: now })
        .where('uuid', '=', copyUuid)
        .execute();
      const fields = { is_process_form_rejected: '1', rejection_reason: reason, rejection_message: message };
      for (const study of [copyUuid, nomination.study_uuid]) {
        for (const [name, value] of Object.entries(fields)) {
          await trx
            .insertInto('study_customfields')
            .values({ study_uuid: study, name, value })
            .onConflict((oc) => oc.columns(['study_uuid', 'name']).doUpdateSet({ value }))
            .execute();
        }
      }
      await trx.insertInto('audit_events').values(audits).execute();
    });
  }
}
