import type { ImageUploadAnswer } from '@imaging-inbox/contract';
import type { IngestResult } from './ingest.service.js';

/** The 202 answer of an uploaded file once durable: single-request, chunked and link uploads alike. */
export function uploadAnswer(result: IngestResult): ImageUploadAnswer {
  return {
    status: 'OK',
    study_uid: result.parsed.studyInstanceUid,
    series_uid: result.parsed.seriesInstanceUid,
    sop_instance_uid: result.parsed.sopInstanceUid,
    study_uuid: result.studyUuid,
    duplicate: result.duplicate,
  };
}
