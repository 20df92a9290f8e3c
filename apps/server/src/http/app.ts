import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyError, FastifyInstance } from 'fastify';
import Fastify from 'fastify';
import type { AppContext } from '../context.js';
import { DomainError } from '../domain/errors.js';
import { compressJsonAnswers } from './compress-json.js';
import { errorBody, httpStatusOf } from './errors.js';
import { addSecurityHeaders } from './security-headers.js';
import { limitJsonDepth } from './json-body.js';
import { serveWebApp } from './web-app.js';
import { registerAccountsRoutes } from '../modules/accounts/index.js';
import { registerAdminRoutes } from '../modules/admin/index.js';
import { registerGatekeeperRoutes } from '../modules/gatekeeper/index.js';
import { registerPacsRoutes } from '../modules/pacs/index.js';
import { registerPrivacyRoutes } from '../modules/privacy/index.js';
import { registerRoutingRoutes } from '../modules/routing/index.js';
import { registerSharingRoutes } from '../modules/sharing/index.js';
import { registerStudiesRoutes } from '../modules/studies/index.js';
import { bundleRoutes } from './routes/bundle.routes.js';
import { qidoRoutes } from '../dicomweb/qido.routes.js';
import { wadoRoutes } from '../dicomweb/wado.routes.js';
import { renderedRoutes } from '../dicomweb/rendered.routes.js';
import { healthRoutes } from '../health/health.routes.js';
import { devRoutes } from './routes/dev.routes.js';
import { stowRoutes } from '../dicomweb/stow.js';
import { believeOnlyTrustedProxies, TrustedProxies } from './client-address.js';

export interface HttpOptions {
  logLevel: string;
  webDist?: string | undefined;
  maxUploadBytes: number;
  /** Reverse proxies whose X-Forwarded-* headers are believed (TRUST_PROXY, see client-address.ts). */
  trustProxy?: string | undefined;
}

/** Session ids, link tokens and upload grants must never reach a log line. */
export function redactSid(url: string): string {
  return url
    .replace(/([?&](?:sid|token|grant)=)[^&]*/g, '$1[redacted]')
    .replace(/^(\/(?:link|send)\/)[^/?]+/, '$1[redacted]');
}

/** A route as registered: its methods (HEAD left out: Fastify adds it to every GET) and URL pattern. */
export interface RegisteredRoute {
  methods: string[];
  url: string;
}
const registered = new WeakMap<FastifyInstance, RegisteredRoute[]>();

/**
 * Every route the app registered, in order. The authorization matrix test walks this list, so a
 * route added without an entry there fails the test.
 */
export function registeredRoutes(app: FastifyInstance): readonly RegisteredRoute[] {
  return registered.get(app) ?? [];
}

export async function buildHttpApp(ctx: AppContext, options: HttpOptions): Promise<FastifyInstance> {
  const trusted = new TrustedProxies(options.trustProxy);
  const app = Fastify({
    logger: {
      level: options.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
      serializers: {
        req: (req: { method: string; url: string }) => ({ method: req.method, url: redactSid(req.url) }),
      },
    },
    bodyLimit: 10 * 1024 * 1024,
    // The same proxies decide the client's address (below) and X-Forwarded-Proto/Host.
    trustProxy: trusted.empty ? false : (address: string) => trusted.has(address),
  });
  believeOnlyTrustedProxies(app, trusted);
  addSecurityHeaders(app);
  limitJsonDepth(app);

  const routes: RegisteredRoute[] = [];
  registered.set(app, routes);
  app.addHook('onRoute', (route) => {
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD');
    if (methods.length) routes.push({ methods, url: route.url });
  });

  // A body left partly unread (an upload refused as too large, or refused after its first bytes
  // were read) keeps Node from parsing the next request on this keep-alive connection, which then
  // waits forever: such an answer closes the connection instead. So does a body refused before any
  // of it was read (an upload without a valid session), or Node would read the rest only to drop it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete) reply.header('connection', 'close');
    return payload;
  });

  // Latency by route pattern (never the URL itself: it can hold ids and a sid).
  app.addHook('onResponse', (request, reply, done) => {
    ctx.services.metrics.request(
      request.method,
      request.routeOptions.url,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });

  await app.register(formbody);
  await app.register(multipart);
  compressJsonAnswers(app);

  app.setErrorHandler((error: FastifyError | DomainError, request, reply) => {
    if (error instanceof DomainError) {
      return reply.code(httpStatusOf(error, request.url)).send(errorBody(error));
    }
    const status = error.statusCode ?? 500;
    if (status >= 500) request.log.error({ err: error, url: redactSid(request.url) }, 'request failed');
    const errorType = status === 413 ? 'FILE_TOO_LARGE' : status >= 500 ? 'INTERNAL' : 'INVALID_FIELD';
    return reply
      .code(status)
      .send({ status: 'ERROR', error_type: errorType, error_subtype: status >= 500 ? null : error.message });
  });

  app.get('/api/v3/health', () => ({ status: 'OK' }));
  healthRoutes(ctx, app);
  // Each workflow module registers its own routes (its README lists them).
  const http = { maxUploadBytes: options.maxUploadBytes };
  registerAccountsRoutes(ctx, app);
  registerPacsRoutes(ctx, app);
  registerAdminRoutes(ctx, app);
  registerStudiesRoutes(ctx, app, http);
  registerRoutingRoutes(ctx, app);
  registerSharingRoutes(ctx, app, http);
  registerGatekeeperRoutes(ctx, app, http);
  registerPrivacyRoutes(ctx, app);
  bundleRoutes(app);
  qidoRoutes(ctx, app);
  wadoRoutes(ctx, app);
  renderedRoutes(ctx, app);
  devRoutes(ctx, app);
  stowRoutes(ctx, app, options.maxUploadBytes);

  await serveWebApp(app, options.webDist);
  return app;
}
