import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticate } from '../http/api.js';
import { notFound } from '../domain/errors.js';
import { collectParams } from '../http/params.js';
import type { Caller } from '../policies/access.js';
import type { StudyRow } from '../repositories/studies.repository.js';
import { ViewerTokenService } from '../services/viewer-token.service.js';

/** Namespaces whose studies the caller may read over DICOMweb (those with study_view). */
export function viewableNamespaces(caller: Caller): string[] {
  return [...caller.groups.values()].filter((g) => g.permissions.has('study_view')).map((g) => g.namespaceId);
}

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
  const full = await ctx.services.access.load(user, row.sid_hash, request.ip);
  const group = full.groups.get(scope.namespaceId);
  return {
    ...full,
    groups: new Map(group ? [[scope.namespaceId, group]] : []),
    studyScope: scope.studyUid,
  };
}

/** The study by UID if the caller may view it; otherwise the same not-found as an unknown UID. */
export async function visibleStudy(ctx: AppContext, caller: Caller, studyUid: string): Promise<StudyRow> {
  if (caller.studyScope !== undefined && caller.studyScope !== studyUid) throw notFound('study');
  const study = await ctx.repos.dicomweb.studyByUid(studyUid, viewableNamespaces(caller));
  if (!study) throw notFound('study');
  return study;
}

/** The URL prefix of DICOMweb links in answers, as the client reached us. */
export function dicomwebBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`;
}
