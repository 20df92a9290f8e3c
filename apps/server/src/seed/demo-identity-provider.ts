import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type Configuration } from 'oidc-provider';
import { providerPage, serveInteraction } from './demo-identity-provider-pages.js';

/** A person the local identity provider signs in, and the claims it says of them. */
export interface IdpUser {
  /** What is typed as the login on the provider's page (also the `sub`). */
  login: string;
  /** The password the provider's page checks. */
  password: string;
  email: string;
  given_name: string;
  family_name: string;
  groups?: string[];
}

export interface IdpClient {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
}

export interface LocalIdentityProvider {
  issuer: string;
  provider: Provider;
  /** The private signing key (JWK), so a test can mint a token the provider itself could have signed. */
  signingKey: Record<string, unknown>;
  users: Map<string, IdpUser>;
  stop(): Promise<void>;
}

/**
 * A real OpenID Provider (`oidc-provider` 8.x) on 127.0.0.1, for the tests and for `DEMO_SSO=1`: the
 * code flow with PKCE required, its own sign-in page (login and password, the password checked:
 * `demo-identity-provider-pages.ts`), ID tokens signed RS256 with a key made at start, discovery,
 * user info and RP-initiated logout. Never for production: it keeps everything in memory and its
 * users' passwords in plain text.
 */
export async function startLocalIdentityProvider(options: {
  port?: number;
  clients: IdpClient[];
  users: IdpUser[];
}): Promise<LocalIdentityProvider> {
  const users = new Map(options.users.map((u) => [u.login, u]));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const signingKey = { ...privateKey.export({ format: 'jwk' }), kid: 'local-1', alg: 'RS256', use: 'sig' };
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const configuration: Configuration = {
    clients: options.clients.map((c) => ({
      ...c,
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    })),
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    pkce: { required: () => true },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
      groups: ['groups'],
    },
    // The claims asked for go into the ID token, as Entra ID, Okta and Keycloak put them there.
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource(ctx, form) {
          ctx.body = providerPage(
            'Sign out – identity provider',
            `<h1>Sign out of the identity provider?</h1>${form}` +
              '<button type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>' +
              '<button type="submit" form="op.logoutForm" class="secondary">No, stay signed in</button>',
          );
          return Promise.resolve();
        },
      },
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = providerPage(
        'Sign-in error',
        `<h1>Sign-in error</h1><p>${String(out.error).replace(/[^\w .-]/g, '')}</p>`,
      );
      return Promise.resolve();
    },
    findAccount(_ctx, id) {
      const user = users.get(id);
      if (!user) return Promise.resolve(undefined);
      return Promise.resolve({
        accountId: id,
        claims: () => ({
          sub: id,
          email: user.email,
          email_verified: true,
          name: `${user.given_name} ${user.family_name}`,
          given_name: user.given_name,
          family_name: user.family_name,
          groups: user.groups ?? [],
        }),
      });
    },
    // First-party clients: no consent screen, the scopes asked for are granted.
    async loadExistingGrant(ctx) {
      const session = ctx.oidc.session;
      const client = ctx.oidc.client;
      if (!session?.accountId || !client) return undefined;
      const grantId = session.grantIdFor(client.clientId);
      const existing = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined;
      if (existing) return existing;
      const grant = new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid email profile groups');
      grant.addOIDCClaims(['email', 'email_verified', 'given_name', 'family_name', 'name', 'groups']);
      await grant.save();
      return grant;
    },
  };
  const provider = new Provider(issuer, configuration);
  // Koa composes its middleware when the handler is made: made per request, a middleware a test
  // adds later (provider.use) takes part too.
  server.on('request', (req, res) => {
    serveInteraction(provider, (login) => users.get(login), req, res)
      .then((served) => (served ? undefined : provider.callback()(req, res)))
      // A page of ours that failed answers 500 rather than taking the process down.
      .catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('identity provider error');
      });
  });
  return {
    issuer,
    provider,
    signingKey,
    users,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
