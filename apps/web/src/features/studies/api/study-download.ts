import type { Study } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** `dicom`: a ZIP; `iso`: an ISO 9660 image (a CD) of the same files and DICOMDIR. */
export type DownloadBundle = 'dicom' | 'iso';

/** Opens an archive's answer to read as it streams (the sid in a header, never in the URL). */
export type OpenDownload = (signal?: AbortSignal) => Promise<Response>;

/**
 * The archive of one study, or of some of its series (`series` a JSON array of UIDs); with
 * `anonymizationId`, de-identified by that profile of the account (study_download_anonymized).
 */
export const studyDownload =
  (study: Study, series?: string, bundle: DownloadBundle = 'dicom', anonymizationId?: string): OpenDownload =>
  (signal) =>
    api.open('storage/study/:storage_namespace/:study_uid/download', {
      route: { storage_namespace: study.storage_namespace, study_uid: study.study_uid },
      params: {
        bundle,
        phi_namespace: study.phi_namespace,
        series,
        ...(anonymizationId ? { anonymize: 1, anonymization_id: anonymizationId } : {}),
      },
      signal,
    });

/** One archive for a multi-selection. */
export const studiesDownload =
  (studies: Study[], bundle: DownloadBundle = 'dicom'): OpenDownload =>
  (signal) =>
    api.open('study/download', {
      params: { uuids: JSON.stringify(studies.map((s) => s.uuid)), bundle },
      signal,
    });
