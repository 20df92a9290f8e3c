import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { DEMO_ACCOUNTS, DEMO_USERS } from './demo-world.js';
import {
  startLocalSamlIdentityProvider,
  type LocalSamlIdentityProvider,
} from './demo-saml-identity-provider.js';

/**
 * DEMO_SSO=saml: the local SAML 2.0 identity provider on 127.0.0.1 (an ephemeral port) and the demo
 * account's single sign-on pointed at it, as `demo-sso.ts` does with OpenID Connect. The provider
 * knows the demo account's users (login their e-mail, password the demo password or one made here)
 * and this service (its entity ID, the account's metadata URL, and its ACS); a new key and
 * certificate each start. samlify is a development dependency (decision 0072), loaded only when
 * the provider starts: a production install, which lacks it, refuses DEMO_SSO=saml at start.
 */
export async function startDemoSamlSso(
  ctx: AppContext,
  publicUrl: string,
): Promise<LocalSamlIdentityProvider & { issuer: string; password: string }> {
  const password = ctx.config.demoPassword ?? randomBytes(9).toString('base64url');
  const demo = DEMO_ACCOUNTS.find((a) => a.key === 'demo')!;
  const k = ctx.db.kysely;
  const account = await k
    .selectFrom('accounts')
    .select('uuid')
    .where('name', '=', demo.name)
    .executeTakeFirst();
  const sp = account
    ? [
        {
          entityId: `${publicUrl}/api/v3/session/sso/saml/metadata?account_id=${encodeURIComponent(account.uuid)}`,
          acsUrl: `${publicUrl}/api/v3/session/sso/saml/acs`,
          name: 'Imaging Inbox',
        },
      ]
    : [];
  const idp = await startLocalSamlIdentityProvider({
    serviceProviders: sp,
    users: DEMO_USERS.filter((u) => u.account === demo.key).map((u) => ({
      login: u.email,
      password,
      email: u.email,
      given_name: u.first,
      family_name: u.last,
    })),
  });
  if (!account) return { ...idp, issuer: idp.entityId, password };
  const claims = 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims';
  const row = {
    account_id: account.uuid,
    type: 'saml',
    enabled: 1,
    display_name: 'Demo identity provider (SAML)',
    issuer: idp.entityId,
    // This service's entity ID: '' is the account's metadata URL, which the provider was told.
    client_id: '',
    client_secret: null,
    scopes: '',
    claim_email: `${claims}/emailaddress`,
    claim_first: `${claims}/givenname`,
    claim_last: `${claims}/surname`,
    claim_roles: null,
    role_map: '[]',
    domains: JSON.stringify(['demo.local']),
    jit: 0,
    default_role_id: null,
    require_sso: 0,
    break_glass_user_id: null,
    updated: Date.now(),
    saml_entry_point: idp.ssoUrl,
    // Kept as the certificate's base64 body, as account/sso/set keeps a pasted one.
    saml_idp_certs: JSON.stringify([idp.certificate.replace(/-----[A-Z ]+-----|\s+/g, '')]),
  };
  await k
    .insertInto('account_sso')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...row }))
    .execute();
  return { ...idp, issuer: idp.entityId, password };
}
