import { z } from 'zod';
import {
  flagParam,
  listParam,
  optionalText,
  parseStringList,
  reportInvalid,
  reportMissing,
  requiredText,
} from './api-params.js';

/** Request schemas of ZIP and ISO downloads (api-params.ts explains the codecs). */

export const DOWNLOAD_BUNDLES = ['dicom', 'iso'] as const;
export type DownloadBundleParam = (typeof DOWNLOAD_BUNDLES)[number];

const bundle = optionalText().transform((raw, ctx): DownloadBundleParam => {
  const value = raw ?? 'dicom';
  return value === 'dicom' || value === 'iso' ? value : reportInvalid(ctx, 'bundle', 'must be dicom or iso');
});

/** storage/study/…/download: one study, optionally some of its series. */
export const storageDownloadRequest = z
  .object({
    phi_namespace: optionalText(),
    bundle,
    series: listParam(),
    /** 1: de-identified by the account's profile `anonymization_id` (study_download_anonymized). */
    anonymize: flagParam(),
    anonymization_id: optionalText(),
  })
  .transform((p, ctx) => {
    if (p.series && p.series.length === 0) return reportMissing(ctx, 'series');
    if (p.anonymize === 1 && !p.anonymization_id) return reportMissing(ctx, 'anonymization_id');
    return {
      phiNamespace: p.phi_namespace,
      bundle: p.bundle,
      seriesUids: p.series,
      anonymizationId: p.anonymize === 1 ? p.anonymization_id : undefined,
    };
  });

/** At most this many studies in one study/download. */
export const MAX_DOWNLOAD_STUDIES = 500;

/** study/download: several studies by uuid (a JSON array or a comma list), each once. */
export const studyDownloadRequest = z.object({ uuids: requiredText(), bundle }).transform((p, ctx) => {
  const list = parseStringList(p.uuids);
  if (!list.ok) return reportInvalid(ctx, 'uuids', list.why);
  const uuids = [...new Set(list.list)];
  if (!uuids.length) return reportMissing(ctx, 'uuids');
  if (uuids.length > MAX_DOWNLOAD_STUDIES) {
    return reportInvalid(ctx, 'uuids', `at most ${MAX_DOWNLOAD_STUDIES} studies`);
  }
  return { uuids, bundle: p.bundle };
});
