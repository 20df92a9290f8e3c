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
import { auditRoutes } from '../modules/admin/index.js';
import { routingRoutes } from '../modules/routing/index.js';
import { webhookRoutes } from '../modules/routing/index.js';
import { labelRoutes } from '../modules/admin/index.js';
import { accountRoutes } from '../modules/admin/index.js';
import { bundleRoutes } from './routes/bundle.routes.js';
import { sessionRoutes } from '../modules/accounts/index.js';
import { twoFactorRoutes } from '../modules/accounts/index.js';
import { settingRoutes } from '../modules/admin/index.js';
import { dicomNodeRoutes } from '../modules/pacs/index.js';
import { hl7SenderRoutes } from '../modules/pacs/index.js';
import { roleRoutes } from '../modules/admin/index.js';
import { groupAdminRoutes } from '../modules/admin/index.js';
import { accountUserRoutes } from '../modules/admin/index.js';
import { destinationRoutes, destinationSearchRoutes, studyPushRoutes } from '../modules/pacs/index.js';
import { storageRoutes } from '../modules/studies/index.js';
import { wrapRoutes } from '../modules/studies/index.js';
import { namespaceRoutes } from '../modules/admin/index.js';
import { customFieldRoutes } from '../modules/admin/index.js';
import { studyRoutes } from '../modules/studies/index.js';
import { tagRoutes } from '../modules/studies/index.js';
import { userRoutes } from '../modules/accounts/index.js';
import { userEventRoutes } from '../modules/accounts/index.js';
import { downloadRoutes } from '../modules/studies/index.js';
import { attachmentRoutes } from '../modules/studies/index.js';
import { studySchemaRoutes } from '../modules/studies/index.js';
import { studyTrashRoutes } from '../modules/studies/index.js';
import { studyMarksRoutes } from '../modules/studies/index.js';
import { studyShareRoutes } from '../modules/sharing/index.js';
import { qidoRoutes } from '../dicomweb/qido.routes.js';
import { wadoRoutes } from '../dicomweb/wado.routes.js';
import { renderedRoutes } from '../dicomweb/rendered.routes.js';
import { studyThumbnailRoutes } from '../modules/studies/index.js';
import { healthRoutes } from '../health/health.routes.js';
import { devRoutes } from './routes/dev.routes.js';
import { stowRoutes } from '../dicomweb/stow.js';
import { linkRoutes } from '../modules/sharing/index.js';
import { studySendRoutes } from '../modules/sharing/index.js';
import { nominationRoutes } from '../modules/gatekeeper/index.js';
import { orderRoutes } from '../modules/gatekeeper/index.js';
import { believeOnlyTrustedProxies, TrustedProxies } from './client-address.js';
import { studyReportRoutes } from '../modules/gatekeeper/index.js';
import { sendPublicRoutes } from '../modules/sharing/index.js';
import { linkPublicRoutes } from '../modules/sharing/index.js';
import { uploadSessionRoutes } from '../modules/studies/index.js';
import { studyViewerRoutes } from '../modules/studies/index.js';

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
  sessionRoutes(ctx, app);
  twoFactorRoutes(ctx, app);
  userRoutes(ctx, app);
  userEventRoutes(ctx, app);
  settingRoutes(ctx, app);
  dicomNodeRoutes(ctx, app);
  hl7SenderRoutes(ctx, app);
  destinationRoutes(ctx, app);
  destinationSearchRoutes(ctx, app);
  studyPushRoutes(ctx, app);
  accountRoutes(ctx, app);
  accountUserRoutes(ctx, app);
  roleRoutes(ctx, app);
  groupAdminRoutes(ctx, app);
  studyRoutes(ctx, app);
  customFieldRoutes(ctx, app);
  tagRoutes(ctx, app);
  auditRoutes(ctx, app);
  routingRoutes(ctx, app);
  webhookRoutes(ctx, app);
  labelRoutes(ctx, app);
  storageRoutes(ctx, app, options.maxUploadBytes);
  uploadSessionRoutes(ctx, app);
  wrapRoutes(ctx, app, options.maxUploadBytes);
  namespaceRoutes(ctx, app);
  downloadRoutes(ctx, app);
  attachmentRoutes(ctx, app);
  studySchemaRoutes(ctx, app);
  studyTrashRoutes(ctx, app);
  studyMarksRoutes(ctx, app);
  studyShareRoutes(ctx, app);
  linkRoutes(ctx, app);
  linkPublicRoutes(ctx, app, options.maxUploadBytes);
  studySendRoutes(ctx, app);
  nominationRoutes(ctx, app);
  orderRoutes(ctx, app);
  studyReportRoutes(ctx, app, options.maxUploadBytes);
  sendPublicRoutes(ctx, app);
  bundleRoutes(app);
  qidoRoutes(ctx, app);
  wadoRoutes(ctx, app);
  renderedRoutes(ctx, app);
  studyThumbnailRoutes(ctx, app);
  studyViewerRoutes(ctx, app);
  devRoutes(ctx, app);
  stowRoutes(ctx, app, options.maxUploadBytes);

  await serveWebApp(app, options.webDist);
  return app;
}
