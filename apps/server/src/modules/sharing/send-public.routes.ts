import { linkTokenRequest, sendGrantRequest, sendVerifyRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { apiRoute } from '../../http/api.js';
import { DomainError } from '../../domain/errors.js';
import { collectParams } from '../../http/params.js';
import { sendArchive } from '../studies/index.js';

/**
 * The e-mailed recipient's calls, reached without a session: `info`, `code` (mail a one-time
 * code) and `verify` take the link token; `study` and `download` take the grant verify answered.
 */
export function sendPublicRoutes(ctx: AppContext, app: FastifyInstance): void {
  const access = ctx.services.sendAccess;

  apiRoute(app, 'send/public/info', linkTokenRequest, async ({ input, request }) => {
    return access.info(input.token, request.ip);
  });

  apiRoute(app, 'send/public/code', linkTokenRequest, async ({ input, request }) => {
    await access.requestCode(input.token, request.ip);
  });

  apiRoute(app, 'send/public/verify', sendVerifyRequest, async ({ input, request }) => {
    return access.verify(input.token, input.code, request.ip);
  });

  apiRoute(app, 'send/public/study', sendGrantRequest, async ({ input, request }) => {
    return access.study(input.grant, request.ip);
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
