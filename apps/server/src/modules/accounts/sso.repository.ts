import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AccountSsoTable, Database, SsoFlowTable } from '../../db/schema.js';

export type SsoConfigRow = Selectable<AccountSsoTable>;
export type SsoFlowRow = Selectable<SsoFlowTable>;

/**
 * The single sign-on tables (decision 0066): each account's provider (`account_sso`), the sign-ins
 * on their way to a provider (`sso_flows`) and the ID tokens of sessions signed in through one
 * (`sso_sessions`).
 */
export class SsoRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(accountId: string): Promise<SsoConfigRow | undefined> {
    return this.db
      .selectFrom('account_sso')
      .selectAll()
      .where('account_id', '=', accountId)
      .executeTakeFirst();
  }

  async save(row: Insertable<AccountSsoTable>): Promise<void> {
    await this.db
      .insertInto('account_sso')
      .values(row)
      .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...row }))
      .execute();
  }

  /** Whether any account signs in through a provider (the sign-in page then asks for the e-mail first). */
  async anyEnabled(): Promise<boolean> {
    const row = await this.db
      .selectFrom('account_sso')
      .select('account_id')
      .where('enabled', '=', 1)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Enabled providers of these accounts, or of accounts listing `domain`, in account order. */
  async enabledFor(accountIds: string[], domain: string | null): Promise<SsoConfigRow[]> {
    const rows = await this.db
      .selectFrom('account_sso')
      .selectAll()
      .where('enabled', '=', 1)
      .orderBy('account_id')
      .execute();
    return rows.filter(
      (row) =>
        accountIds.includes(row.account_id) ||
        (domain !== null && (JSON.parse(row.domains) as string[]).includes(domain)),
    );
  }

  /** The accounts requiring SSO among `accountIds`, with their break-glass member. */
  requiringSso(accountIds: string[]): Promise<SsoConfigRow[]> {
    if (!accountIds.length) return Promise.resolve([]);
    return this.db
      .selectFrom('account_sso')
      .selectAll()
      .where('account_id', 'in', accountIds)
      .where('enabled', '=', 1)
      .where('require_sso', '=', 1)
      .execute();
  }

  async saveFlow(flow: SsoFlowRow, now: number): Promise<void> {
    await this.db.deleteFrom('sso_flows').where('expires', '<=', now).execute();
    await this.db.insertInto('sso_flows').values(flow).execute();
  }

  /**
   * The flow of a state, removed as it is read, so a state (and the code it carries) is used once
   * even by two callbacks at the same moment: only the one whose delete removed the row gets it.
   */
  async takeFlow(stateHash: string): Promise<SsoFlowRow | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const flow = await tx
        .selectFrom('sso_flows')
        .selectAll()
        .where('state_hash', '=', stateHash)
        .executeTakeFirst();
      if (!flow) return undefined;
      const gone = await tx.deleteFrom('sso_flows').where('state_hash', '=', stateHash).executeTakeFirst();
      return Number(gone.numDeletedRows) === 1 ? flow : undefined;
    });
  }

  async saveSession(sidHash: string, accountId: string, idToken: string, expires: number, now: number) {
    await this.db.deleteFrom('sso_sessions').where('expires', '<=', now).execute();
    await this.db
      .insertInto('sso_sessions')
      .values({ sid_hash: sidHash, account_id: accountId, id_token: idToken, expires })
      .execute();
  }

  /** The provider session of a sid, removed (sign-out). */
  async takeSession(sidHash: string): Promise<{ account_id: string; id_token: string } | undefined> {
    const row = await this.db
      .selectFrom('sso_sessions')
      .select(['account_id', 'id_token'])
      .where('sid_hash', '=', sidHash)
      .executeTakeFirst();
    if (row) await this.db.deleteFrom('sso_sessions').where('sid_hash', '=', sidHash).execute();
    return row;
  }
}
