import { randomBytes } from 'node:crypto';
import type { AppContext } from '../context.js';
import { DEMO_ACCOUNTS, DEMO_USERS } from './demo-world.js';
import { startLocalIdentityProvider, type LocalIdentityProvider } from './demo-identity-provider.js';

const DEMO_CLIENT_ID = 'imaging-inbox-demo';

/**
 * DEMO_SSO=1: the local test identity provider on 127.0.0.1 (an ephemeral port) and the demo
 * account's single sign-on pointed at it, so a newcomer can try OpenID Connect on one machine. The
 * provider knows the demo account's users (its login is their e-mail, its password the demo
 * password, or `password` made here when the demo password was generated at an earlier start); no
 * user is created on a first sign-in (JIT off). A new secret and signing key each start: nothing of
 * it outlives the process.
 */
export async function startDemoSso(
  ctx: AppContext,
  publicUrl: string,
): Promise<LocalIdentityProvider & { password: string }> {
  const password = ctx.config.demoPassword ?? randomBytes(9).toString('base64url');
  const demo = DEMO_ACCOUNTS.find((a) => a.key === 'demo')!;
  const k = ctx.db.kysely;
  const account = await k
    .selectFrom('accounts')
    .select('uuid')
    .where('name', '=', demo.name)
    .executeTakeFirst();
  const clientSecret = randomBytes(24).toString('base64url');
  const idp = await startLocalIdentityProvider({
    clients: [
      {
        client_id: DEMO_CLIENT_ID,
        client_secret: clientSecret,
        redirect_uris: [`${publicUrl}/api/v3/session/sso/callback`],
        post_logout_redirect_uris: [`${publicUrl}/`],
      },
    ],
    users: DEMO_USERS.filter((u) => u.account === demo.key).map((u) => ({
      login: u.email,
      password,
      email: u.email,
      given_name: u.first,
      family_name: u.last,
    })),
  });
  if (!account) return { ...idp, password };
  const row = {
    account_id: account.uuid,
    type: 'oidc',
    enabled: 1,
    display_name: 'Demo identity provider',
    issuer: idp.issuer,
    client_id: DEMO_CLIENT_ID,
    client_secret: clientSecret,
    scopes: 'openid email profile',
    claim_email: 'email',
    claim_first: 'given_name',
    claim_last: 'family_name',
    claim_roles: null,
    role_map: '[]',
    domains: JSON.stringify(['demo.local']),
    jit: 0,
    default_role_id: null,
    require_sso: 0,
    break_glass_user_id: null,
    updated: Date.now(),
  };
  await k
    .insertInto('account_sso')
    .values(row)
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ ...row }))
    .execute();
  return { ...idp, password };
}
