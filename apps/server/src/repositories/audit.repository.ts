import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditEventTable, Database } from '../db/schema.js';

export type AuditEventRow = Selectable<AuditEventTable>;

export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(event: Insertable<AuditEventTable>): Promise<void> {
    await this.db.insertInto('audit_events').values(event).execute();
  }

  forObject(objectId: string, limit = 100): Promise<AuditEventRow[]> {
    return this.db
      .selectFrom('audit_events')
      .selectAll()
      .where('object_id', '=', objectId)
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }
}
