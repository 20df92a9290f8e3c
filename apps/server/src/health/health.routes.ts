import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { mayReadMetrics } from '../http/metrics-access.js';

/**
 * Probes for a load balancer and an operator, outside api/v3 and without a session: /healthz
 * answers while the process runs, /readyz says whether it should get traffic (503 while draining
 * or when the database or blob store does not answer), /metrics is this process's Prometheus text
 * (metrics/metrics.ts), for a loopback client or one with METRICS_TOKEN (metrics-access.ts). None
 * tells anything about the data: counts and route patterns only.
 */
export function healthRoutes(ctx: AppContext, app: FastifyInstance): void {
  app.get('/healthz', (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'OK', process: ctx.config.processId }),
  );

  app.get('/readyz', async (_request, reply) => {
    const answer = await ctx.services.readiness.check();
    return reply
      .code(answer.ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: answer.ready ? 'OK' : 'NOT_READY', ...answer });
  });

  app.get('/metrics', async (request, reply) => {
    if (!mayReadMetrics(request, ctx.config.metricsToken))
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .header('cache-control', 'no-store')
        .send({ status: 'ERROR', error_type: 'NOT_PERMITTED', error_subtype: 'metrics' });
    return reply
      .header('cache-control', 'no-store')
      .type(ctx.services.metrics.contentType)
      .send(await ctx.services.metrics.text());
  });
}
