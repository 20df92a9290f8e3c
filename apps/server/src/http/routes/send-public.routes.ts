import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute } from '../api.js';
import { DomainError } from '../../domain/errors.js';
import { collectParams, required } from '../params.js';
import { sendArchive } from './download.routes.js';

/**
 * The e-mailed recipient's calls, reached without a session: `info`, `code` (mail a one-time
 * code) and `verify` take the link token; `study` and `download` take the grant verify answered.
 */
export function sendPublicRoutes(ctx: AppContext, app: FastifyInstance): void {
  const access = ctx.services.sendAccess;

  apiRoute(app, 'send/public/info', async ({ params, request }) => {
    const [token] = required(params, 'token');
    return access.info(token, request.ip);
  });

  apiRoute(app, 'send/public/code', async ({ params, request }) => {
    const [token] = required(params, 'token');
    await access.requestCode(token, request.ip);
  });

  apiRoute(app, 'send/public/verify', async ({ params, request }) => {
    const [token, code] = required(params, 'token', 'code');
    return access.verify(token, code, request.ip);
  });

  apiRoute(app, 'send/public/study', async ({ params, request }) => {
    const [grant] = required(params, 'grant');
    return access.study(grant, request.ip);
  });

  app.route({
    method: ['GET', 'POST'],
    url: '/api/v3/send/public/download',
    handler: async (request, reply) => {
      const grant = collectParams(request)['grant']?.trim();
      if (!grant) throw new DomainError('NO_LINK_ERROR');
      return sendArchive(reply, await access.download(grant, request.ip));
    },
  });
}
