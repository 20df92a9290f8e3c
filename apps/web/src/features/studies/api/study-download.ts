import type { Study } from '@imaging-inbox/contract';
import { API_BASE } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';

/** `dicom`: a ZIP; `iso`: an ISO 9660 image (a CD) of the same files and DICOMDIR. */
export type DownloadBundle = 'dicom' | 'iso';

/**
 * The archive of one study, or of some of its series (`series` a JSON array of UIDs); with
 * `anonymizationId`, de-identified by that profile of the account (study_download_anonymized).
 */
export function studyDownloadUrl(
  study: Study,
  series?: string,
  bundle: DownloadBundle = 'dicom',
  anonymizationId?: string,
): string {
  const query = new URLSearchParams({ bundle, phi_namespace: study.phi_namespace });
  if (series) query.set('series', series);
  if (anonymizationId) {
    query.set('anonymize', '1');
    query.set('anonymization_id', anonymizationId);
  }
  const sid = getSid();
  if (sid) query.set('sid', sid);
  const path = `storage/study/${encodeURIComponent(study.storage_namespace)}/${encodeURIComponent(study.study_uid)}/download`;
  return `${API_BASE}/${path}?${query.toString()}`;
}

/** One archive for a multi-selection. */
export function studiesDownloadUrl(studies: Study[], bundle: DownloadBundle = 'dicom'): string {
  const query = new URLSearchParams({ uuids: JSON.stringify(studies.map((s) => s.uuid)), bundle });
  const sid = getSid();
  if (sid) query.set('sid', sid);
  return `${API_BASE}/study/download?${query.toString()}`;
}
