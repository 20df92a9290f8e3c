import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * More writes to make in a repository's transaction, such as queueing the mail that tells about
 * the change (Mailer.queue): they commit or roll back together with it.
 */
export type AlsoInTransaction = (trx: Kysely<Database>) => Promise<void>;
