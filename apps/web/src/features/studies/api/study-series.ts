import { queryOptions } from '@tanstack/react-query';
import { ApiError, CLIENT_ERROR_CODES } from '../../../lib/api-error';
import { getSid } from '../../../lib/storage';
import { parseSeries, type DicomJsonObject } from '../lib/series';

/** The series of a study from QIDO-RS (`GET /dicomweb/studies/{uid}/series`). */
export const studySeriesQuery = (studyUid: string) =>
  queryOptions({
    queryKey: ['dicomweb', 'series', studyUid],
    queryFn: async ({ signal }) => {
      const query = new URLSearchParams();
      const sid = getSid();
      if (sid) query.set('sid', sid);
      const response = await fetch(`/dicomweb/studies/${encodeURIComponent(studyUid)}/series?${query}`, {
        signal,
        headers: { Accept: 'application/dicom+json' },
      });
      if (response.status === 204) return [];
      if (!response.ok) throw new ApiError(CLIENT_ERROR_CODES.unexpected, response.status);
      return parseSeries((await response.json()) as DicomJsonObject[]);
    },
    staleTime: 60_000,
  });
