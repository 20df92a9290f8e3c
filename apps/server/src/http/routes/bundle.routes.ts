import type { FastifyInstance } from 'fastify';
import { invalidField } from '../../domain/errors.js';

const MAX_BUNDLE = 500;

/**
 * POST a JSON list of sub-requests `{URL, sid, ...params}`; each is run through the same routes
 * (so the same checks) and the answers come back in order.
 */
export function bundleRoutes(app: FastifyInstance): void {
  app.post('/api/v3/bundle', async (request) => {
    const body = request.body;
    if (!Array.isArray(body)) throw invalidField('bundle', 'must be a JSON array of requests');
    if (body.length > MAX_BUNDLE) throw invalidField('bundle', `at most ${MAX_BUNDLE} requests`);
    const answers = [];
    for (const item of body as unknown[]) {
      if (!item || typeof item !== 'object' || typeof (item as { URL?: unknown }).URL !== 'string') {
        answers.push({ status: 'ERROR', error_type: 'MISSING_FIELDS', error_subtype: 'URL' });
        continue;
      }
      const { URL: url, ...params } = item as { URL: string } & Record<string, unknown>;
      const path = url.replace(/^\/?(api\/v3\/)?/, '');
      if (path.startsWith('bundle')) {
        answers.push({ status: 'ERROR', error_type: 'INVALID_FIELD', error_subtype: 'URL' });
        continue;
      }
      const response = await app.inject({
        method: 'POST',
        url: `/api/v3/${path}`,
        payload: params,
        remoteAddress: request.ip,
        headers: request.headers.authorization ? { authorization: request.headers.authorization } : {},
      });
      answers.push(response.json<unknown>());
    }
    return answers;
  });
}
