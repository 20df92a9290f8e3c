import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AuditEventTable, Database, Hl7ResultTable } from '../../db/schema.js';

export type Hl7ResultRow = Selectable<Hl7ResultTable>;

/** Report results received over HL7, by account and accession number. */
export class Hl7ResultsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores a result, replacing the earlier one of the same result id, with its audit event. */
  async upsert(row: Insertable<Hl7ResultTable>, audit: Insertable<AuditEventTable>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('hl7_results')
        .values(row)
        .onConflict((oc) =>
          oc.columns(['account_id', 'accession_number', 'result_id']).doUpdateSet({
            status: row.status,
            author: row.author,
            observed: row.observed ?? null,
            title: row.title,
            text: row.text,
            control_id: row.control_id,
            updated: row.updated,
          }),
        )
        .execute();
      await trx.insertInto('audit_events').values(audit).execute();
    });
  }

  /** The results of an accession number in an account, newest first. */
  ofAccession(accountId: string, accessionNumber: string): Promise<Hl7ResultRow[]> {
    return this.db
      .selectFrom('hl7_results')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('accession_number', '=', accessionNumber)
      .orderBy('updated', 'desc')
      .execute();
  }
}
