import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, Hl7SenderTable } from '../../db/schema.js';

export type Hl7SenderRow = Selectable<Hl7SenderTable>;

/** MSH-3 / MSH-4 as the registry compares them: trimmed and upper-cased ('' for none). */
export function hl7IdKey(value: string | null | undefined): string {
  return (value ?? '').trim().toUpperCase();
}

/** Registered HL7 senders (address + sending facility [+ application] → account). */
export class Hl7SendersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<Hl7SenderTable>): Promise<void> {
    await this.db.insertInto('hl7_senders').values(row).execute();
  }

  find(uuid: string): Promise<Hl7SenderRow | undefined> {
    return this.db.selectFrom('hl7_senders').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  listOfAccount(accountId: string): Promise<Hl7SenderRow[]> {
    return this.db
      .selectFrom('hl7_senders')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('facility_key')
      .orderBy('host')
      .orderBy('uuid')
      .execute();
  }

  /** The sender registered under exactly this address, facility and application key. */
  findIdentity(host: string, facilityKey: string, applicationKey: string): Promise<Hl7SenderRow | undefined> {
    return this.db
      .selectFrom('hl7_senders')
      .selectAll()
      .where('host', '=', host)
      .where('facility_key', '=', facilityKey)
      .where('application_key', '=', applicationKey)
      .executeTakeFirst();
  }

  /**
   * The sender a message comes from: its connection's address and its MSH-4, with MSH-3 when one is
   * registered for it, else the one that accepts any application.
   */
  async match(host: string, facility: string, application: string): Promise<Hl7SenderRow | undefined> {
    const rows = await this.db
      .selectFrom('hl7_senders')
      .selectAll()
      .where('host', '=', host)
      .where('facility_key', '=', hl7IdKey(facility))
      .where('application_key', 'in', [hl7IdKey(application), ''])
      .execute();
    return rows.find((r) => r.application_key !== '') ?? rows[0];
  }

  async update(uuid: string, changes: Updateable<Hl7SenderTable>): Promise<void> {
    await this.db.updateTable('hl7_senders').set(changes).where('uuid', '=', uuid).execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('hl7_senders').where('uuid', '=', uuid).execute();
  }
}
