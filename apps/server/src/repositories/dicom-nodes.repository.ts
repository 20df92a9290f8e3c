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

  /** Another AE title of our own listener, with the namespace of the group it feeds. */
  findLocalAe(
    aeTitle: string,
  ): Promise<{ ae_title: string; account_id: string; group_uuid: string; namespace_id: string } | undefined> {
    return this.db
      .selectFrom('local_ae_titles')
      .innerJoin('groups', 'groups.uuid', 'local_ae_titles.group_uuid')
      .select([
        'local_ae_titles.ae_title',
        'local_ae_titles.account_id',
        'local_ae_titles.group_uuid',
        'groups.namespace_id',
      ])
      .where('local_ae_titles.ae_title', '=', aeTitle)
      .executeTakeFirst();
  }

  async insertLocalAe(row: Insertable<Database['local_ae_titles']>): Promise<void> {
    await this.db.insertInto('local_ae_titles').values(row).execute();
  }

  /** Any sender registered under this calling AE title, with or without a group. */
  findAnyByAeTitle(aeTitle: string): Promise<DicomNodeListed | undefined> {
    return this.listed().where('dicom_nodes.ae_title', '=', aeTitle).executeTakeFirst();
  }

  /**
   * Any sender whose AE title is this one in any case or padding: a PACS compares AE titles
   * case-blind, so `orthanc` and `ORTHANC` name the same sender (decision 0054).
   */
  findAnyByAeKey(aeTitle: string): Promise<DicomNodeListed | undefined> {
    return this.listed()
      .where((e) =>
        e(e.fn('upper', [e.fn('trim', ['dicom_nodes.ae_title'])]), '=', aeTitle.trim().toUpperCase()),
      )
      .executeTakeFirst();
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
