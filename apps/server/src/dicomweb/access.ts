import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticate } from '../http/api.js';
import { collectParams } from '../http/params.js';
import type { Caller } from '../policies/index.js';
import { scopedToStudy } from '../policies/index.js';
import { ViewerTokenService } from './viewer-token.service.js';

/** A viewer token from `Authorization: Bearer vt_…` or a `token` query parameter. */
function viewerTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header?.startsWith('Bearer ')) {
    const value = header.slice(7).trim();
    return ViewerTokenService.isViewerToken(value) ? value : undefined;
  }
  const query = collectParams(request)['token']?.trim();
  return query && ViewerTokenService.isViewerToken(query) ? query : undefined;
}

/**
 * The caller, from the api/v3 session (`Authorization: Bearer <sid>` or a `sid` query parameter)
 * or from a viewer token. A token's caller is the user who asked for it, with their current
 * permissions, narrowed to the one namespace and study the token names.
 */
export async function dicomwebCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller> {
  const token = viewerTokenOf(request);
  if (!token) return authenticate(ctx, request, collectParams(request));
  const { row, scope } = await ctx.services.viewerTokens.resolve(token);
  const user = await ctx.services.viewerTokens.userOf(row);
  return scopedToStudy(await ctx.services.access.load(user, row.sid_hash, request.ip), scope);
}

/** The URL prefix of DICOMweb links in answers, as the client reached us. */
export function dicomwebBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`;
}
