import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.js';

export type OutboxRow = Selectable<OutboxTable>;
export type OutboxState = OutboxRow['state'];

/**
 * The outbox: every mail is a row, written in the transaction of the change it is about (pass the
 * transaction as `db`), then delivered by a job that moves it from queued to sent or failed.
 */
export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(
    mail: { to_address: string; subject: string; body: string; kind: string | null; created: number },
    state: 'queued' | 'local',
    db: Kysely<Database> = this.db,
  ): Promise<number> {
    const row = await db
      .insertInto('outbox')
      .values({ ...mail, state, sent: null, attempts: 0, last_error: null })
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  }

  find(id: number): Promise<OutboxRow | undefined> {
    return this.db.selectFrom('outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** Counts an attempt before it is made, so a crash mid-send still shows in the record. */
  async noteAttempt(id: number): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Records an attempt's error while the mail stays queued for the next one. */
  async noteError(id: number, error: string): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ last_error: error.slice(0, 2000) })
      .where('id', '=', id)
      .execute();
  }

  async markSent(id: number, now: number): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ state: 'sent', sent: now, last_error: null })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  }

  async markFailed(id: number, error: string): Promise<void> {
    await this.db
      .updateTable('outbox')
      .set({ state: 'failed', last_error: error.slice(0, 2000) })
      .where('id', '=', id)
      .where('state', '=', 'queued')
      .execute();
  }

  latest(limit = 50): Promise<OutboxRow[]> {
    return this.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }
}
