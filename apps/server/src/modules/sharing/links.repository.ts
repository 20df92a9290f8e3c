import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Database, LinkGrantTable, LinkTable } from '../../db/schema.js';
import type { AlsoInTransaction } from '../../repositories/with-transaction.js';

export type LinkRow = Selectable<LinkTable>;
export type LinkGrantRow = Selectable<LinkGrantTable>;

export interface LinkListRow extends LinkRow {
  namespace_name: string;
}

export interface LinkWithNames extends LinkRow {
  namespace_name: string;
  requester_name: string;
  requester_email: string;
}

export type LinkSortField = 'created' | 'email';

/** Request-study links and their upload grants. */
export class LinksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Adds the link, with `also` (its mail) in the same transaction. */
  async insert(link: Insertable<LinkTable>, also?: AlsoInTransaction): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('links').values(link).execute();
      await also?.(trx);
    });
  }

  /** The link with the names the public page shows: its group and who asked. */
  findByTokenHash(tokenHash: string): Promise<LinkWithNames | undefined> {
    return this.db
      .selectFrom('links')
      .innerJoin('namespaces', 'namespaces.id', 'links.namespace_id')
      .innerJoin('users', 'users.uuid', 'links.created_by')
      .selectAll('links')
      .select([
        'namespaces.name as namespace_name',
        'users.name as requester_name',
        'users.email as requester_email',
      ])
      .where('links.token_hash', '=', tokenHash)
      .executeTakeFirst();
  }

  findByUuid(uuid: string): Promise<LinkRow | undefined> {
    return this.db.selectFrom('links').selectAll().where('uuid', '=', uuid).executeTakeFirst();
  }

  /** Live (not revoked, not expired) links of the given namespaces. */
  list(
    namespaceIds: string[],
    now: number,
    sort: { field: LinkSortField; direction: 'asc' | 'desc' },
  ): Promise<LinkListRow[]> {
    if (!namespaceIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('links')
      .innerJoin('namespaces', 'namespaces.id', 'links.namespace_id')
      .selectAll('links')
      .select('namespaces.name as namespace_name')
      .where('links.namespace_id', 'in', namespaceIds)
      .where('links.revoked', 'is', null)
      .where('links.expires', '>', now)
      .orderBy(`links.${sort.field}`, sort.direction)
      .orderBy('links.uuid')
      .execute();
  }

  /**
   * Counts one hit if the link is still usable; the condition and the increment are one statement,
   * so two parallel unlocks cannot both take the last hit. Answers the hit count after the claim.
   */
  async claimHit(
    uuid: string,
    now: number,
    /** Run in the same transaction once the hit is counted, with the new count (e.g. a mail on the first). */
    also?: (trx: Kysely<Database>, hits: number) => Promise<void>,
  ): Promise<number | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .updateTable('links')
        .set({ hits: sql`hits + 1` })
        .where('uuid', '=', uuid)
        .where('revoked', 'is', null)
        .where('expires', '>', now)
        .where(sql<boolean>`hits < max_hits`)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return undefined;
      const row = await trx
        .selectFrom('links')
        .select('hits')
        .where('uuid', '=', uuid)
        .executeTakeFirstOrThrow();
      const hits = Number(row.hits);
      await also?.(trx, hits);
      return hits;
    });
  }

  async revoke(uuid: string, now: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('links').set({ revoked: now }).where('uuid', '=', uuid).execute();
      await trx.deleteFrom('link_grants').where('link_uuid', '=', uuid).execute();
    });
  }

  async insertGrant(grant: LinkGrantRow): Promise<void> {
    await this.db.insertInto('link_grants').values(grant).execute();
  }

  findGrant(grantHash: string): Promise<LinkGrantRow | undefined> {
    return this.db
      .selectFrom('link_grants')
      .selectAll()
      .where('grant_hash', '=', grantHash)
      .executeTakeFirst();
  }
}
