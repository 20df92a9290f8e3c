import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, DicomNodeTable } from '../db/schema.js';

export type DicomNodeRow = Selectable<DicomNodeTable>;

/** A registered sender with the namespace its instances are delivered into. */
export interface DicomNodeTarget extends DicomNodeRow {
  namespace_id: string;
}

/** Registered DICOM senders (calling AE title + host → target group). */
export class DicomNodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(node: Insertable<DicomNodeTable>): Promise<void> {
    await this.db.insertInto('dicom_nodes').values(node).execute();
  }

  /** The sender registered under this calling AE title, joined to its target group's namespace. */
  findByAeTitle(aeTitle: string): Promise<DicomNodeTarget | undefined> {
    return this.db
      .selectFrom('dicom_nodes')
      .innerJoin('groups', 'groups.uuid', 'dicom_nodes.group_uuid')
      .selectAll('dicom_nodes')
      .select('groups.namespace_id')
      .where('dicom_nodes.ae_title', '=', aeTitle)
      .executeTakeFirst();
  }

  listOfAccount(accountId: string): Promise<DicomNodeRow[]> {
    return this.db
      .selectFrom('dicom_nodes')
      .selectAll()
      .where('account_id', '=', accountId)
      .orderBy('ae_title')
      .execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('dicom_nodes').where('uuid', '=', uuid).execute();
  }
}
