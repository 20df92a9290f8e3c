import type { Kysely, Migration } from 'kysely';

/**
 * Single sign-on with OpenID Connect (decision 0066): one provider per account (`account_sso`, its
 * client secret kept like the two-factor secrets and never answered), the sign-ins on their way to
 * the provider (`sso_flows`: state, nonce and PKCE verifier kept server-side, found by the state's
 * SHA-256, used once, short-lived), and what a session signed in through a provider needs at
 * sign-out (`sso_sessions`: the ID token for RP-initiated logout); `sso_identities` ties a
 * provider's subject to the person it signed in.
 */
export const accountSso: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('account_sso')
      .addColumn('account_id', 'text', (c) => c.primaryKey().references('accounts.uuid').onDelete('cascade'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('display_name', 'text', (c) => c.notNull())
      .addColumn('issuer', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('client_secret', 'text')
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('claim_email', 'text', (c) => c.notNull())
      .addColumn('claim_first', 'text', (c) => c.notNull())
      .addColumn('claim_last', 'text', (c) => c.notNull())
      .addColumn('claim_roles', 'text')
      .addColumn('role_map', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('domains', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('jit', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('default_role_id', 'text')
      .addColumn('require_sso', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('break_glass_user_id', 'text')
      .addColumn('updated', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('sso_flows')
      .addColumn('state_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid').onDelete('cascade'))
      .addColumn('browser_hash', 'text', (c) => c.notNull())
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('code_verifier', 'text', (c) => c.notNull())
      .addColumn('return_to', 'text', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sso_flows_expires').on('sso_flows').column('expires').execute();
    // Who a provider's subject is in the account: found again when their e-mail changes there.
    await db.schema
      .createTable('sso_identities')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid').onDelete('cascade'))
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.uuid').onDelete('cascade'))
      .addPrimaryKeyConstraint('sso_identities_pk', ['account_id', 'subject'])
      .execute();
    await db.schema
      .createTable('sso_sessions')
      .addColumn('sid_hash', 'text', (c) => c.primaryKey())
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid').onDelete('cascade'))
      .addColumn('id_token', 'text', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sso_sessions').execute();
    await db.schema.dropTable('sso_identities').execute();
    await db.schema.dropTable('sso_flows').execute();
    await db.schema.dropTable('account_sso').execute();
  },
};
