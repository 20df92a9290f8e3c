import type { Kysely, Selectable } from 'kysely';
import type { Database, OutboxTable } from '../db/schema.js';

export type OutboxRow = Selectable<OutboxTable>;

export class OutboxRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(mail: {
    to_address: string;
    subject: string;
    body: string;
    created: number;
    sent: number | null;
  }) {
    await this.db.insertInto('outbox').values(mail).execute();
  }

  latest(limit = 50): Promise<OutboxRow[]> {
    return this.db.selectFrom('outbox').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }
}
