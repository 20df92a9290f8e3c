import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DicomNodeTable } from '../db/schema.js';

export type DicomNodeRow = Selectable<DicomNodeTable>;

/** A registered sender with the namespace its instances are delivered into. */
export interface DicomNodeTarget extends DicomNodeRow {
  namespace_id: string;
}

/** A registered sender with its target group's name and namespace, as the API lists it. */
export interface DicomNodeListed extends DicomNodeTarget {
  group_name: string;
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

  find(uuid: string): Promise<DicomNodeListed | undefined> {
    return this.listed().where('dicom_nodes.uuid', '=', uuid).executeTakeFirst();
  }

  listOfAccount(accountId: string): Promise<DicomNodeListed[]> {
    return this.listed()
      .where('dicom_nodes.account_id', '=', accountId)
      .orderBy('dicom_nodes.ae_title')
      .execute();
  }

  async update(uuid: string, changes: Updateable<DicomNodeTable>): Promise<void> {
    await this.db.updateTable('dicom_nodes').set(changes).where('uuid', '=', uuid).execute();
  }

  async remove(uuid: string): Promise<void> {
    await this.db.deleteFrom('dicom_nodes').where('uuid', '=', uuid).execute();
  }

  private listed() {
    return this.db
      .selectFrom('dicom_nodes')
      .innerJoin('groups', 'groups.uuid', 'dicom_nodes.group_uuid')
      .selectAll('dicom_nodes')
      .select(['groups.namespace_id', 'groups.name as group_name']);
  }
}
