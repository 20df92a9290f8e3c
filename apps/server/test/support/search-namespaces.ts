import type { TestServer } from './test-server.js';

/** The namespaces a search test writes studies into, straight into the database. */
export interface SearchNamespaces {
  /** The demo account the clinician belongs to. */
  account: string;
  /** Two of the clinician's groups. */
  emergency: string;
  cardiology: string;
  /** A namespace of another account, whose studies the clinician's searches must never show. */
  otherNamespace: string;
  otherAccount: string;
}

/** The clinician's Emergency and Cardiology namespaces, their account, and one of another account. */
export async function searchNamespaces(server: TestServer, sid: string): Promise<SearchNamespaces> {
  const db = server.ctx.db.kysely;
  const emergency = await server.api.namespaceOf(sid, 'Emergency');
  const cardiology = await server.api.namespaceOf(sid, 'Cardiology');
  const { account_id: account } = await db
    .selectFrom('namespaces')
    .select('account_id')
    .where('id', '=', emergency)
    .executeTakeFirstOrThrow();
  const other = await db
    .selectFrom('namespaces')
    .select(['id', 'account_id'])
    .where('account_id', '!=', account)
    .executeTakeFirstOrThrow();
  return { account, emergency, cardiology, otherNamespace: other.id, otherAccount: other.account_id };
}
