import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Caller } from '../policies/access.js';
import { sessionExpired } from '../domain/errors.js';
import type { Params } from './params.js';
import { collectParams } from './params.js';

export interface ApiCall {
  params: Params;
  request: FastifyRequest;
  reply: FastifyReply;
}
export interface AuthedCall extends ApiCall {
  caller: Caller;
}

/** The sid from the Authorization header, the body or the query, in that order. */
export function sidOf(request: FastifyRequest, params: Params): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return params['sid']?.trim() || undefined;
}

export async function authenticate(
  ctx: AppContext,
  request: FastifyRequest,
  params: Params,
): Promise<Caller> {
  const sid = sidOf(request, params);
  if (!sid) throw sessionExpired('SID not found in session');
  const resolved = await ctx.services.sessions.resolve(sid);
  if (!resolved) throw sessionExpired('SID not found in session');
  return ctx.services.access.load(resolved.user, resolved.session.sid_hash, request.ip);
}

/**
 * Registers one api/v3 call on GET and POST (Ambra clients use both), answering `{status:"OK"}`
 * merged with what the handler returns.
 */
export function apiRoute(
  app: FastifyInstance,
  path: string,
  handler: (call: ApiCall) => Promise<object | void> | object | void,
): void {
  app.route({
    method: ['GET', 'POST'],
    url: `/api/v3/${path}`,
    handler: async (request, reply) => {
      const params = collectParams(request);
      const result = await handler({ params, request, reply });
      if (reply.sent) return reply;
      return { status: 'OK', ...(result ?? {}) };
    },
  });
}

export function authedRoute(
  ctx: AppContext,
  app: FastifyInstance,
  path: string,
  handler: (call: AuthedCall) => Promise<object | void> | object | void,
): void {
  apiRoute(app, path, async (call) => {
    const caller = await authenticate(ctx, call.request, call.params);
    return handler({ ...call, caller });
  });
}
