import type { Kysely, Migration } from 'kysely';

/**
 * Single sign-on with SAML 2.0 (decision 0070): an account's identity provider keeps its sign-on
 * URL and signing certificates beside the OpenID Connect columns (`issuer` is then the identity
 * provider's entity ID, `client_id` this service's); a sign-in on its way holds the AuthnRequest's
 * ID (checked against the answer's InResponseTo) and, once the identity provider has posted a valid
 * assertion, what it said until the same browser comes for its session; the address that started
 * it bounds how many one client may leave open. `saml_assertions` remembers each accepted
 * assertion's ID until it expires, in the database so a replay is refused by every node.
 */
export const ssoSaml: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('account_sso').addColumn('saml_entry_point', 'text').execute();
    await db.schema.alterTable('account_sso').addColumn('saml_idp_certs', 'text').execute();
    await db.schema.alterTable('sso_flows').addColumn('request_id', 'text').execute();
    await db.schema.alterTable('sso_flows').addColumn('asserted', 'text').execute();
    await db.schema.alterTable('sso_flows').addColumn('ip', 'text').execute();
    await db.schema.createIndex('sso_flows_ip').on('sso_flows').columns(['ip', 'expires']).execute();
    await db.schema
      .createTable('saml_assertions')
      .addColumn('account_id', 'text', (c) => c.notNull().references('accounts.uuid').onDelete('cascade'))
      .addColumn('assertion_id', 'text', (c) => c.notNull())
      .addColumn('expires', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('saml_assertions_pk', ['account_id', 'assertion_id'])
      .execute();
    await db.schema.createIndex('saml_assertions_expires').on('saml_assertions').column('expires').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('saml_assertions').execute();
    await db.schema.dropIndex('sso_flows_ip').execute();
    for (const column of ['request_id', 'asserted', 'ip'])
      await db.schema.alterTable('sso_flows').dropColumn(column).execute();
    for (const column of ['saml_entry_point', 'saml_idp_certs'])
      await db.schema.alterTable('account_sso').dropColumn(column).execute();
  },
};
