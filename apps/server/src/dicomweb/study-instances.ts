import type { AppContext } from '../context.js';
import { notFound } from '../domain/errors.js';
import type { Caller } from '../policies/index.js';
import type { InstanceRow } from '../repositories/dicomweb.repository.js';
import type { StudyRow } from '../repositories/studies.repository.js';

/** An instance as the DICOMweb routes answer it: with its series' UID and modality. */
export type DicomwebInstance = InstanceRow & { series_uid: string; modality: string };

/** What a DICOMweb path names: a study UID, maybe one of its series and one of their instances. */
export interface InstancePath {
  study: string;
  series?: string;
  instance?: string;
}

/** Narrower matches a QIDO-RS query adds to the path. */
export interface InstanceFilters {
  sopInstanceUid?: string;
  sopClassUid?: string;
  instanceNumber?: number;
}

/**
 * The study a DICOMweb path names, after the same visibility check as api/v3 (a study the caller
 * may not see is not found), and the instances the path and filters name; `instances` is null when
 * the path names a series the study does not hold, for each route to answer as its standard says.
 */
export async function findInstances(
  ctx: AppContext,
  caller: Caller,
  path: InstancePath,
  filters: InstanceFilters = {},
): Promise<{ study: StudyRow; instances: DicomwebInstance[] | null }> {
  const study = await ctx.services.studyAccess.byUid(caller, path.study);
  let seriesUuid: string | undefined;
  if (path.series) {
    const [series] = await ctx.repos.dicomweb.seriesOfStudy(study.uuid, { seriesUid: path.series });
    if (!series) return { study, instances: null };
    seriesUuid = series.uuid;
  }
  const instances = await ctx.repos.dicomweb.instances(study.uuid, {
    seriesUuid,
    sopInstanceUid: filters.sopInstanceUid ?? path.instance,
    sopClassUid: filters.sopClassUid,
    instanceNumber: filters.instanceNumber,
  });
  return { study, instances };
}

/** As findInstances, for a retrieve: an unknown series or no instance at all is not found. */
export async function requireInstances(
  ctx: AppContext,
  caller: Caller,
  path: InstancePath,
): Promise<{ study: StudyRow; instances: DicomwebInstance[] }> {
  const { study, instances } = await findInstances(ctx, caller, path);
  if (!instances) throw notFound('series');
  if (!instances.length) throw notFound('instance');
  return { study, instances };
}
