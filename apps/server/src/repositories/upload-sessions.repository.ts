import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, UploadSessionTable } from '../db/schema.js';

export type UploadSessionRow = Selectable<UploadSessionTable>;

/** Resumable upload sessions (see ingest/upload-session.service.ts). */
export class UploadSessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: Insertable<UploadSessionTable>): Promise<void> {
    await this.db.insertInto('upload_sessions').values(row).execute();
  }

  /** The live session with this id of this owner; someone else's id reads as missing. */
  find(idHash: string, owner: string, now: number): Promise<UploadSessionRow | undefined> {
    return this.db
      .selectFrom('upload_sessions')
      .selectAll()
      .where('id_hash', '=', idHash)
      .where('owner', '=', owner)
      .where('expires', '>', now)
      .executeTakeFirst();
  }

  /**
   * Bytes still to arrive in open (not completed, not expired) sessions, of one owner or of all:
   * what the temp area may still grow by, checked before a new session is opened.
   */
  async openBytes(now: number, owner?: string): Promise<{ sessions: number; bytes: number }> {
    let query = this.db
      .selectFrom('upload_sessions')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('answer', 'is', null)
      .where('expires', '>', now);
    if (owner !== undefined) query = query.where('owner', '=', owner);
    const row = await query.executeTakeFirstOrThrow();
    return { sessions: Number(row.n), bytes: Number(row.bytes ?? 0) };
  }

  /**
   * Claims the append at `offset` for `token` (compare-and-set): only while the session holds
   * exactly `offset` bytes, is not complete and has no live claim (one whose process died lapses at
   * `claim_expires`). Of two requests, in one process or two, for the same offset only one wins.
   */
  async claim(idHash: string, offset: number, token: string, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_sessions')
      .set({ claim: token, claim_expires: until })
      .where('id_hash', '=', idHash)
      .where('received', '=', offset)
      .where('answer', 'is', null)
      .where((eb) => eb.or([eb('claim', 'is', null), eb('claim_expires', '<=', now)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Pushes out the lapse of a claim still held by `token`; answers whether it still is. */
  async renewClaim(idHash: string, token: string, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_sessions')
      .set({ claim_expires: until })
      .where('id_hash', '=', idHash)
      .where('claim', '=', token)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Gives up a claim that did not commit (refused or broken append); another one's is untouched. */
  async releaseClaim(idHash: string, token: string): Promise<void> {
    await this.db
      .updateTable('upload_sessions')
      .set({ claim: null, claim_expires: null })
      .where('id_hash', '=', idHash)
      .where('claim', '=', token)
      .execute();
  }

  /**
   * Commits a claimed append: moves `received` from `from` to `to`, pushes the expiry out and drops
   * the claim, only if `token` still holds it and nobody moved the offset. Answers whether it won.
   */
  async advance(idHash: string, from: number, to: number, expires: number, token: string): Promise<boolean> {
    const result = await this.db
      .updateTable('upload_sessions')
      .set({ received: to, expires, claim: null, claim_expires: null })
      .where('id_hash', '=', idHash)
      .where('received', '=', from)
      .where('claim', '=', token)
      .where('answer', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async setAnswer(idHash: string, answer: string): Promise<void> {
    await this.db.updateTable('upload_sessions').set({ answer }).where('id_hash', '=', idHash).execute();
  }

  async remove(idHash: string): Promise<void> {
    await this.db.deleteFrom('upload_sessions').where('id_hash', '=', idHash).execute();
  }

  /** Expired sessions, oldest first: the sweeper removes their files, then the rows. */
  expired(now: number, limit: number): Promise<Pick<UploadSessionRow, 'id_hash'>[]> {
    return this.db
      .selectFrom('upload_sessions')
      .select('id_hash')
      .where('expires', '<=', now)
      .orderBy('expires')
      .limit(limit)
      .execute();
  }

  async removeMany(idHashes: string[]): Promise<void> {
    if (!idHashes.length) return;
    await this.db.deleteFrom('upload_sessions').where('id_hash', 'in', idHashes).execute();
  }

  /** Which of these id hashes still have a row (to tell orphan temp files apart). */
  async existing(idHashes: string[]): Promise<Set<string>> {
    if (!idHashes.length) return new Set();
    const rows = await this.db
      .selectFrom('upload_sessions')
      .select('id_hash')
      .where('id_hash', 'in', idHashes)
      .execute();
    return new Set(rows.map((r) => r.id_hash));
  }
}
