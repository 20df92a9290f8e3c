import type { ExpressionBuilder, Insertable, Kysely } from 'kysely';
import type { AuditEventTable, Database, StudyPushTable } from '../../db/schema.js';
import type { AlsoInTransaction } from '../../repositories/with-transaction.js';
import type { PushableInstance } from '../pacs/index.js';

/** What processing a nomination writes at its two commits: accepted, then queued for the push. */
export class NominationProcessRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /**
   * Accepts the processing in one transaction: records what was asked on the nomination (only if
   * nothing was asked yet and it is not rejected), locks the gatekeeper's copy for the caller (only
   * while it is still a nomination and no one else holds a live lock), and whatever `also` adds
   * (the recovery job). 'taken' when it was already accepted or decided; 'locked' when someone
   * else holds the copy's lock; nothing is written then.
   */
  async accept(
    input: {
      nomination: string;
      copy: string;
      intent: string;
      userId: string;
      now: number;
      lapsedAt: number;
    },
    also: AlsoInTransaction,
  ): Promise<'accepted' | 'taken' | 'locked'> {
    return this.db
      .transaction()
      .execute(async (trx) => {
        const claimed = await trx
          .updateTable('nominations')
          .set({ process: input.intent, processed_by: input.userId, updated: input.now })
          .where('uuid', '=', input.nomination)
          .where('process', 'is', null)
          .where('rejected', '=', 0)
          .executeTakeFirst();
        if (Number(claimed.numUpdatedRows) !== 1) return 'taken';
        const locked = await trx
          .updateTable('studies')
          .set({ is_locked: 1, locked_by: input.userId, locked_at: input.now, updated: input.now })
          .where('uuid', '=', input.copy)
          .where('must_approve', '=', 1)
          .where((eb) => freeOrOurs(eb, input.userId, input.lapsedAt))
          .executeTakeFirst();
        if (Number(locked.numUpdatedRows) !== 1) {
          // Undo the claim with the rest of the transaction.
          throw new LockedOrDecided();
        }
        await also(trx);
        return 'accepted' as const;
      })
      .catch((error: unknown) => {
        if (error instanceof LockedOrDecided) return 'locked' as const;
        throw error;
      });
  }

  /**
   * Queues the push in one transaction once the attributes are written: the copy leaves
   * Nominations (must_approve=0, push status I) and is unlocked, the nomination is marked
   * processed, the copy carries the workflow fields (priority, destination, order), the attempt
   * and its instances are added, and `also` adds the push job and the audit events. False (nothing
   * written) when it was already done.
   */
  async queue(
    input: {
      nomination: string;
      copy: string;
      now: number;
      fields: Record<string, string>;
      push: Insertable<StudyPushTable>;
      instances: PushableInstance[];
      audits: Insertable<AuditEventTable>[];
    },
    also: AlsoInTransaction,
  ): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const moved = await trx
        .updateTable('studies')
        .set({
          must_approve: 0,
          push_status: input.push.status,
          is_locked: 0,
          locked_by: null,
          locked_at: null,
          updated: input.now,
        })
        .where('uuid', '=', input.copy)
        .where('must_approve', '=', 1)
        .executeTakeFirst();
      if (Number(moved.numUpdatedRows) !== 1) return false;
      await trx
        .updateTable('nominations')
        .set({ processed_at: input.now, updated: input.now })
        .where('uuid', '=', input.nomination)
        .execute();
      for (const [name, value] of Object.entries(input.fields)) {
        await trx
          .insertInto('study_customfields')
          .values({ study_uuid: input.copy, name, value })
          .onConflict((oc) => oc.columns(['study_uuid', 'name']).doUpdateSet({ value }))
          .execute();
      }
      await trx.insertInto('study_pushes').values(input.push).execute();
      for (let i = 0; i < input.instances.length; i += 200) {
        await trx
          .insertInto('study_push_instances')
          .values(
            input.instances
              .slice(i, i + 200)
              .map((x) => ({ ...x, push_id: input.push.uuid, state: 'pending', reason: null })),
          )
          .execute();
      }
      if (input.audits.length) await trx.insertInto('audit_events').values(input.audits).execute();
      await also(trx);
      return true;
    });
  }

  /** Gives a nomination back to Nominations when what was asked can no longer be done (unlocks it too). */
  async release(nomination: string, copy: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('nominations')
        .set({ process: null, processed_by: null, updated: now })
        .where('uuid', '=', nomination)
        .where('processed_at', 'is', null)
        .execute();
      await trx
        .updateTable('studies')
        .set({ is_locked: 0, locked_by: null, locked_at: null, updated: now })
        .where('uuid', '=', copy)
        .where('must_approve', '=', 1)
        .execute();
    });
  }
}

class LockedOrDecided extends Error {}

function freeOrOurs(eb: ExpressionBuilder<Database, 'studies'>, userId: string, lapsedAt: number) {
  return eb.or([
    eb('is_locked', '=', 0),
    eb('locked_by', '=', userId),
    eb('locked_at', 'is', null),
    eb('locked_at', '<=', lapsedAt),
  ]);
}
