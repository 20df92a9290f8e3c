import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  accountSsoGetRequest,
  accountSsoSetRequest,
  samlAcsRequest,
  samlMetadataRequest,
  ssoCallbackRequest,
  ssoLookupRequest,
  ssoStartRequest,
} from '@imaging-inbox/contract';
import type { AppContext } from '../../context.js';
import { DomainError } from '../../domain/errors.js';
import { apiRoute, authedRoute } from '../../http/api.js';

/** The cookie tying a provider's answer to the browser that started the sign-in. */
const FLOW_COOKIE = 'inbox_sso_flow';
const FLOW_COOKIE_PATH = '/api/v3/session/sso';

function flowCookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === FLOW_COOKIE) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * SameSite=Lax: the provider's redirect back is a top-level GET, which carries it; a request
 * another site makes in the background does not. Secure when the server is reached over https.
 */
function setFlowCookie(ctx: AppContext, reply: FastifyReply, value: string, maxAge: number): void {
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${FLOW_COOKIE}=${encodeURIComponent(value)}; Path=${FLOW_COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/**
 * Single sign-on (decision 0066): an account's provider (account/sso/get|set, its admins only),
 * the sign-in page's look-up, and the two browser navigations of a sign-in (start → the provider
 * → callback → the app).
 */
export function ssoRoutes(ctx: AppContext, app: FastifyInstance): void {
  const { ssoConfig, ssoSignIn } = ctx.services;

  authedRoute(ctx, app, 'account/sso/get', accountSsoGetRequest, async ({ caller, input }) => ({
    sso: await ssoConfig.get(caller, input.account_id),
    redirect_uri: ssoConfig.redirectUri,
    saml: await ssoConfig.serviceProvider(input.account_id),
  }));

  authedRoute(ctx, app, 'account/sso/set', accountSsoSetRequest, async ({ caller, input }) => ({
    sso: await ssoConfig.set(caller, input),
    redirect_uri: ssoConfig.redirectUri,
    saml: await ssoConfig.serviceProvider(input.account_id),
  }));

  apiRoute(app, 'session/sso/lookup', ssoLookupRequest, ({ input }) =>
    ssoSignIn.lookup({ accountId: input.account_id, email: input.email }),
  );

  apiRoute(app, 'session/sso/start', ssoStartRequest, async ({ input, request, reply }) => {
    const next = await ssoSignIn.start(
      { accountId: input.account_id, email: input.email },
      input.return_to,
      request.ip,
    );
    if (next.browserToken) setFlowCookie(ctx, reply, next.browserToken, 600);
    return reply.header('cache-control', 'no-store').redirect(next.location, 303);
  });

  apiRoute(app, 'session/sso/callback', ssoCallbackRequest, async ({ input, request, reply }) => {
    const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const next = await ssoSignIn.callback(input, query, flowCookieOf(request), request.ip);
    // Cleared once signed in; a refused answer (a forged one among them) leaves the browser's own
    // sign-in able to finish.
    if (next.signedIn) setFlowCookie(ctx, reply, '', 0);
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(next.location, 303);
  });

  // A SAML identity provider posts its response here (HTTP-POST binding, a cross-site POST that
  // carries no SameSite=Lax cookie): checked, then on to the callback as a top-level GET, which
  // carries the browser's flow cookie (decision 0070).
  apiRoute(app, 'session/sso/saml/acs', samlAcsRequest, async ({ input, request, reply }) => {
    const next = await ssoSignIn.acs(input, request.method, request.ip);
    return reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(next.location, 303);
  });

  // The service provider's metadata for the identity provider's admin (public, as metadata is).
  apiRoute(app, 'session/sso/saml/metadata', samlMetadataRequest, async ({ input, reply }) => {
    const xml = await ssoConfig.metadata(input.account_id);
    if (!xml) throw new DomainError('NOT_FOUND', 'sso');
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(xml);
  });
}
