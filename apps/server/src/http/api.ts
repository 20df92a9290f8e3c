import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Caller } from '../policies/index.js';
import { sessionExpired } from '../domain/errors.js';
import type { Params } from './params.js';
import { collectParams } from './params.js';
import type { RequestSchema } from './request-schema.js';
import { parseRequest } from './request-schema.js';

export interface ApiCall {
  params: Params;
  request: FastifyRequest;
  reply: FastifyReply;
}
export interface AuthedCall extends ApiCall {
  caller: Caller;
}
/** A call whose parameters its route's schema has parsed into `input`. */
export interface TypedCall<I> extends ApiCall {
  input: I;
}
export interface TypedAuthedCall<I> extends AuthedCall {
  input: I;
}
type Answer = Promise<object | void> | object | void;

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
 * merged with what the handler returns. With a schema, the parameters are parsed at the edge and
 * the handler gets them typed as `input`.
 */
export function apiRoute<S extends RequestSchema>(
  app: FastifyInstance,
  path: string,
  schema: S,
  handler: (call: TypedCall<z.output<S>>) => Answer,
): void;
export function apiRoute(app: FastifyInstance, path: string, handler: (call: ApiCall) => Answer): void;
export function apiRoute(
  app: FastifyInstance,
  path: string,
  schemaOrHandler: RequestSchema | ((call: ApiCall) => Answer),
  typedHandler?: (call: TypedCall<unknown>) => Answer,
): void {
  app.route({
    method: ['GET', 'POST'],
    url: `/api/v3/${path}`,
    handler: async (request, reply) => {
      const params = collectParams(request);
      const result =
        typeof schemaOrHandler === 'function'
          ? await schemaOrHandler({ params, request, reply })
          : await typedHandler!({ params, request, reply, input: parseRequest(schemaOrHandler, params) });
      if (reply.sent) return reply;
      return { status: 'OK', ...(result ?? {}) };
    },
  });
}

export function authedRoute<S extends RequestSchema>(
  ctx: AppContext,
  app: FastifyInstance,
  path: string,
  schema: S,
  handler: (call: TypedAuthedCall<z.output<S>>) => Answer,
): void;
export function authedRoute(
  ctx: AppContext,
  app: FastifyInstance,
  path: string,
  handler: (call: AuthedCall) => Answer,
): void;
export function authedRoute(
  ctx: AppContext,
  app: FastifyInstance,
  path: string,
  schemaOrHandler: RequestSchema | ((call: AuthedCall) => Answer),
  typedHandler?: (call: TypedAuthedCall<unknown>) => Answer,
): void {
  apiRoute(app, path, async (call) => {
    // The session is checked before the parameters, so an anonymous caller learns nothing of them.
    const caller = await authenticate(ctx, call.request, call.params);
    if (typeof schemaOrHandler === 'function') return schemaOrHandler({ ...call, caller });
    return typedHandler!({ ...call, caller, input: parseRequest(schemaOrHandler, call.params) });
  });
}
