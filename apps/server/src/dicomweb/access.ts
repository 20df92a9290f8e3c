import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { authenticate } from '../http/api.js';
import { notFound } from '../http/errors.js';
import { collectParams } from '../http/params.js';
import type { Caller } from '../policies/access.js';
import type { StudyRow } from '../repositories/studies.repository.js';

/** Namespaces whose studies the caller may read over DICOMweb (those with study_view). */
export function viewableNamespaces(caller: Caller): string[] {
  return [...caller.groups.values()].filter((g) => g.permissions.has('study_view')).map((g) => g.namespaceId);
}

/** The caller, from `Authorization: Bearer <sid>` or a `sid` query parameter. */
export function dicomwebCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller> {
  return authenticate(ctx, request, collectParams(request));
}

/** The study by UID if the caller may view it; otherwise the same not-found as an unknown UID. */
export async function visibleStudy(ctx: AppContext, caller: Caller, studyUid: string): Promise<StudyRow> {
  const study = await ctx.repos.dicomweb.studyByUid(studyUid, viewableNamespaces(caller));
  if (!study) throw notFound('study');
  return study;
}

/** The URL prefix of DICOMweb links in answers, as the client reached us. */
export function dicomwebBase(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}/dicomweb`;
}
