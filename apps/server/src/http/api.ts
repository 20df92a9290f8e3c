import type {
  ApiAnswer,
  ApiFileAnswer,
  ApiPath,
  ApiRedirectAnswer,
  ApiRequestSchema,
  ApiUntypedAnswer,
  ListFilter,
} from '@imaging-inbox/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AppContext } from '../context.js';
import type { Caller } from '../policies/index.js';
import { sessionExpired } from '../domain/errors.js';
import { hashToken } from '../security/tokens.js';
import { listFiltersOf } from './list-filters.js';
import type { Params } from './params.js';
import { collectParams } from './params.js';
import type { RequestSchema } from './request-schema.js';
import { parseRequest } from './request-schema.js';

export interface ApiCall {
  params: Params;
  /** A list's `filter.<field>.<condition>` parameters, checked (none for a call that is not a list). */
  filters: ListFilter[];
  request: FastifyRequest;
  reply: FastifyReply;
}
/** A call whose parameters its route's schema has parsed into `input`. */
export interface TypedCall<I> extends ApiCall {
  input: I;
}
export interface TypedAuthedCall<I> extends TypedCall<I> {
  caller: Caller;
}
/** A call that passed its route's guard (who is asking) before its parameters were parsed. */
export interface GuardedCall<G, I> extends TypedCall<I> {
  guard: G;
}
/** The fields of an answer besides `status`, kept apart on each member of a union answer. */
type AnswerFields<A> = A extends unknown ? Omit<A, 'status'> : never;
/**
 * What a handler of `P` returns: the fields of the contract's answer for `P` (the route adds
 * `status: "OK"`), nothing when the answer has no field of its own, or anything for a call that
 * answers through `reply` (a redirect, a file) or whose answer the contract leaves untyped.
 */
type HandlerAnswer<P extends ApiPath> =
  ApiAnswer<P> extends ApiRedirectAnswer | ApiFileAnswer
    ? object | void
    : ApiUntypedAnswer extends ApiAnswer<P>
      ? object | void
      : object extends AnswerFields<ApiAnswer<P>>
        ? AnswerFields<ApiAnswer<P>> | void
        : AnswerFields<ApiAnswer<P>>;
type Answer<P extends ApiPath> = Promise<HandlerAnswer<P>> | HandlerAnswer<P>;

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
  const sidHash = hashToken(sid);
  // The session and its user's access are read side by side (one round trip on PostgreSQL); the
  // access is used only once the session is found valid.
  const access = ctx.services.access.readForSession(sidHash);
  const resolved = await ctx.services.sessions.resolveHash(sidHash);
  if (!resolved) throw sessionExpired('SID not found in session');
  return ctx.services.access.load(resolved.user, sidHash, request.ip, access);
}

/**
 * A path of the contract's map of api/v3 calls (`API_CALLS`) and the request schema the map gives
 * it: a route the map does not name, or a schema other than the map's, fails to type-check (and
 * test/api/api-calls.test.ts compares the map with what the server registers).
 */
type MappedSchema<P extends ApiPath> = Extract<ApiRequestSchema<P>, RequestSchema>;

/**
 * Registers one api/v3 call on GET and POST (Ambra clients use both), answering `{status:"OK"}`
 * merged with what the handler returns. Every call declares its parameter schema: the parameters
 * are parsed at the edge and the handler gets them typed as `input`.
 */
export function apiRoute<P extends ApiPath, S extends MappedSchema<P>>(
  app: FastifyInstance,
  path: P,
  schema: S,
  handler: (call: TypedCall<z.output<S>>) => Answer<P>,
): void {
  guardedRoute(app, path, () => Promise.resolve(undefined), schema, handler);
}

/**
 * An api/v3 call whose `guard` decides who is asking (a session, a link grant) before its
 * parameters are parsed, so a caller who may not ask learns nothing of them.
 */
export function guardedRoute<G, P extends ApiPath, S extends MappedSchema<P>>(
  app: FastifyInstance,
  path: P,
  guard: (request: FastifyRequest, params: Params) => Promise<G>,
  schema: S,
  handler: (call: GuardedCall<G, z.output<S>>) => Answer<P>,
): void {
  app.route({
    method: ['GET', 'POST'],
    url: `/api/v3/${path}`,
    handler: async (request, reply) => {
      const params = collectParams(request);
      const allowed = await guard(request, params);
      const filters = listFiltersOf(path, params);
      const input: z.output<S> = parseRequest(schema, params);
      const result = await handler({ params, filters, request, reply, input, guard: allowed });
      if (reply.sent) return reply;
      return { status: 'OK', ...(result ?? {}) };
    },
  });
}

/** An api/v3 call of a signed-in user: the session is checked before the parameters. */
export function authedRoute<P extends ApiPath, S extends MappedSchema<P>>(
  ctx: AppContext,
  app: FastifyInstance,
  path: P,
  schema: S,
  handler: (call: TypedAuthedCall<z.output<S>>) => Answer<P>,
): void {
  guardedRoute(
    app,
    path,
    (request, params) => authenticate(ctx, request, params),
    schema,
    ({ guard, ...call }) => handler({ ...call, caller: guard }),
  );
}
