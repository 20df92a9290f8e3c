import * as oidc from 'openid-client';
import type { SsoConfigRow } from './sso.repository.js';

/** How long what was discovered of a provider (endpoints, keys) is used before it is read again. */
const DISCOVERY_TTL_MS = 10 * 60_000;
/** The most a provider's clock may differ from ours when its tokens' times are checked. */
export const OIDC_CLOCK_TOLERANCE_S = 60;
/** How long a call to the provider (discovery, token, user info) may take. */
const PROVIDER_TIMEOUT_S = 10;

const isLoopback = (url: URL) => ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);

/** What a validated sign-in gives: the ID token's claims (with user info when it lacked some) and the token. */
export interface OidcIdentity {
  claims: Record<string, unknown>;
  idToken: string;
}

/**
 * The OpenID Connect relying party on `openid-client` (decision 0066): discovery from the issuer,
 * the authorization request (code flow with PKCE S256, state and nonce), and the callback's checks,
 * all done by the library: the state, the code exchanged with the PKCE verifier, the ID token's
 * signature (non-repudiation checks turned on) against the provider's published keys, its issuer, audience, expiry and nonce, with a
 * bounded clock tolerance. Plain http is only let through to a provider on this machine.
 */
export class OidcClients {
  private readonly cache = new Map<
    string,
    { config: Promise<oidc.Configuration>; at: number; updated: number }
  >();

  constructor(private readonly now: () => number = Date.now) {}

  /** Forgets a provider whose settings changed. */
  forget(accountId: string): void {
    this.cache.delete(accountId);
  }

  private configOf(row: SsoConfigRow): Promise<oidc.Configuration> {
    const cached = this.cache.get(row.account_id);
    const now = this.now();
    if (cached && cached.updated === row.updated && now - cached.at < DISCOVERY_TTL_MS) return cached.config;
    const issuer = new URL(row.issuer);
    const auth = row.client_secret ? oidc.ClientSecretBasic(row.client_secret) : oidc.None();
    const config = oidc
      .discovery(issuer, row.client_id, { [oidc.clockTolerance]: OIDC_CLOCK_TOLERANCE_S }, auth, {
        timeout: PROVIDER_TIMEOUT_S,
        ...(issuer.protocol === 'http:' && isLoopback(issuer)
          ? { execute: [oidc.allowInsecureRequests] }
          : {}),
      })
      .then((c) => {
        c.timeout = PROVIDER_TIMEOUT_S;
        // The library trusts an ID token from the token endpoint on TLS alone unless told otherwise
        // (OIDC Core 3.1.3.7 allows it); its signature is checked here against the provider's keys.
        oidc.enableNonRepudiationChecks(c);
        return c;
      });
    // A failed discovery is not kept: the next sign-in asks again.
    config.catch(() => this.cache.delete(row.account_id));
    this.cache.set(row.account_id, { config, at: now, updated: row.updated });
    return config;
  }

  /** The provider's authorization URL for one sign-in. */
  async authorizationUrl(
    row: SsoConfigRow,
    redirectUri: string,
    checks: { state: string; nonce: string; codeVerifier: string },
    loginHint?: string,
  ): Promise<string> {
    const config = await this.configOf(row);
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: row.scopes,
      response_type: 'code',
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      ...(loginHint ? { login_hint: loginHint } : {}),
    });
    return url.href;
  }

  /** Exchanges the code of `callbackUrl` and checks everything; throws on any failure. */
  async complete(
    row: SsoConfigRow,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcIdentity> {
    const config = await this.configOf(row);
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
      expectedState: checks.state,
      expectedNonce: checks.nonce,
      pkceCodeVerifier: checks.codeVerifier,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims || !tokens.id_token) throw new Error('no ID token');
    let claims: Record<string, unknown> = { ...idClaims };
    // Some providers put the profile only in user info (Okta's org server, ADFS): read it then.
    const wanted = [
      row.claim_email,
      row.claim_first,
      row.claim_last,
      ...(row.claim_roles ? [row.claim_roles] : []),
    ];
    if (wanted.some((c) => claims[c] === undefined) && config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
      claims = { ...info, ...claims };
    }
    return { claims, idToken: tokens.id_token };
  }

  /** The provider's end-session URL (RP-initiated logout), when it offers one. */
  async endSessionUrl(
    row: SsoConfigRow,
    idToken: string,
    postLogoutRedirectUri: string,
  ): Promise<string | null> {
    const config = await this.configOf(row);
    if (!config.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(config, {
      id_token_hint: idToken,
      post_logout_redirect_uri: postLogoutRedirectUri,
    }).href;
  }
}
