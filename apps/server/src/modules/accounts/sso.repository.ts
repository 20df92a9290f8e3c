import type { Insertable, Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import type { AccountSsoTable, Database, SsoFlowTable } from '../../db/schema.js';
import { rateLimitedLogin } from './login-throttle.js';

export type SsoConfigRow = Selectable<AccountSsoTable>;
export type SsoFlowRow = Selectable<SsoFlowTable>;

/** How many sign-ins may be on their way to a provider at once: from one client address, and in all. */
export interface SsoFlowLimits {
  perAddress: number;
  global: number;
}

/**
 * The single sign-on tables (decisions 0066, 0070): each account's provider (`account_sso`), the
 * sign-ins on their way to a provider (`sso_flows`), the ID tokens of sessions signed in through
 * one (`sso_sessions`) and the SAML assertions accepted (`saml_assertions`).
 */
export class SsoRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectName,
  ) {}

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

  /**
   * Keeps a new sign-in unless its address already has `perAddress` open (unexpired) or all
   * addresses together `global`: then RATE_LIMITED and nothing kept. The count and the insert are
   * one exclusive step (PostgreSQL: an advisory lock in the transaction; SQLite: its one
   * connection), so starts arriving together cannot all pass a count none of them is in yet.
   */
  async saveFlow(flow: SsoFlowRow, now: number, limits: SsoFlowLimits): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      if (this.dialect === 'postgres')
        await sql`select pg_advisory_xact_lock(hashtext('sso_flows'))`.execute(tx);
      await tx.deleteFrom('sso_flows').where('expires', '<=', now).execute();
      const count = (ip?: string | null) => {
        let query = tx.selectFrom('sso_flows').select((eb) => eb.fn.countAll<number>().as('n'));
        if (ip !== undefined) query = query.where('ip', '=', ip);
        return query.executeTakeFirstOrThrow().then((r) => Number(r.n));
      };
      if (flow.ip && (await count(flow.ip)) >= limits.perAddress) throw rateLimitedLogin();
      if ((await count()) >= limits.global) throw rateLimitedLogin();
      await tx.insertInto('sso_flows').values(flow).execute();
    });
  }

  async deleteFlow(stateHash: string): Promise<void> {
    await this.db.deleteFrom('sso_flows').where('state_hash', '=', stateHash).execute();
  }

  /** The flow of a state, left in place (the SAML ACS reads it before the browser comes back). */
  findFlow(stateHash: string): Promise<SsoFlowRow | undefined> {
    return this.db.selectFrom('sso_flows').selectAll().where('state_hash', '=', stateHash).executeTakeFirst();
  }

  /** Keeps what a valid assertion said on its flow; false when the flow is gone or already answered. */
  async assertFlow(stateHash: string, asserted: string): Promise<boolean> {
    const done = await this.db
      .updateTable('sso_flows')
      .set({ asserted })
      .where('state_hash', '=', stateHash)
      .where('asserted', 'is', null)
      .executeTakeFirst();
    return Number(done.numUpdatedRows) === 1;
  }

  /**
   * Remembers an accepted assertion's ID until it expires; false when it was seen before (a replay),
   * on this node or any other: the primary key decides, so two posts at once cannot both pass.
   */
  async rememberAssertion(accountId: string, assertionId: string, expires: number, now: number) {
    await this.db.deleteFrom('saml_assertions').where('expires', '<=', now).execute();
    const done = await this.db
      .insertInto('saml_assertions')
      .values({ account_id: accountId, assertion_id: assertionId, expires })
      .onConflict((oc) => oc.columns(['account_id', 'assertion_id']).doNothing())
      .executeTakeFirst();
    return Number(done.numInsertedOrUpdatedRows ?? 0) === 1;
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
