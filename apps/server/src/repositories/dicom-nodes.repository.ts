import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { Database, DicomNodeTable } from '../db/schema.js';

export type DicomNodeRow = Selectable<DicomNodeTable>;

/** A registered sender with the namespace its instances are delivered into. */
export interface DicomNodeTarget extends DicomNodeRow {
  group_uuid: string;
  namespace_id: string;
}

/** A registered sender with its target group's name and namespace (none for a destination's PACS). */
export interface DicomNodeListed extends DicomNodeRow {
  namespace_id: string | null;
  group_name: string | null;
}

/** Registered DICOM senders (calling AE title + host → target group). */
export class DicomNodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(node: Insertable<DicomNodeTable>): Promise<void> {
    await this.db.insertInto('dicom_nodes').values(node).execute();
  }

  /**
   * The sender registered under this calling AE title with a group to deliver into, joined to the
   * group's namespace (a destination's PACS without a group is not found here).
   */
  async findByAeTitle(aeTitle: string): Promise<DicomNodeTarget | undefined> {
    const row = await this.db
      .selectFrom('dicom_nodes')
      .innerJoin('groups', 'groups.uuid', 'dicom_nodes.group_uuid')
      .selectAll('dicom_nodes')
      .select('groups.namespace_id')
      .where('dicom_nodes.ae_title', '=', aeTitle)
      .executeTakeFirst();
    return row as DicomNodeTarget | undefined;
  }

  /** Any sender registered under this calling AE title, with or without a group. */
  findAnyByAeTitle(aeTitle: string): Promise<DicomNodeListed | undefined> {
    return this.listed().where('dicom_nodes.ae_title', '=', aeTitle).executeTakeFirst();
  }

  findOfDestination(destinationId: string): Promise<DicomNodeListed | undefined> {
    return this.listed().where('dicom_nodes.destination_id', '=', destinationId).executeTakeFirst();
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
      .leftJoin('groups', 'groups.uuid', 'dicom_nodes.group_uuid')
      .selectAll('dicom_nodes')
      .select(['groups.namespace_id', 'groups.name as group_name']);
  }
}
