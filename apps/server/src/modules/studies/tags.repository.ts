import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../db/schema.js';
import { likePattern } from '../../repositories/study-search.sql.js';

export class TagsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(studyUuid: string, tag: string): Promise<void> {
    await this.db
      .insertInto('study_tags')
      .values({ study_uuid: studyUuid, tag })
      .onConflict((oc) => oc.columns(['study_uuid', 'tag']).doNothing())
      .execute();
  }

  async remove(studyUuid: string, tag: string): Promise<void> {
    await this.db
      .deleteFrom('study_tags')
      .where('study_uuid', '=', studyUuid)
      .where('tag', '=', tag)
      .execute();
  }

  /** Distinct tags used on studies of the given namespaces, optionally matching a like pattern. */
  async suggest(namespaces: string[], like: string | undefined, limit: number): Promise<string[]> {
    if (!namespaces.length) return [];
    let query = this.db
      .selectFrom('study_tags')
      .innerJoin('studies', 'studies.uuid', 'study_tags.study_uuid')
      .select('study_tags.tag')
      .distinct()
      .where('studies.namespace_id', 'in', namespaces);
    if (like) {
      const pattern = like.includes('%') ? like : `%${like}%`;
      query = query.where(
        sql<string>`upper(study_tags.tag)`,
        'like',
        sql<string>`${likePattern(pattern.toUpperCase())} escape '\\'`,
      );
    }
    const rows = await query.orderBy('study_tags.tag').limit(limit).execute();
    return rows.map((r) => r.tag);
  }
}
