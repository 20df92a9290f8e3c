import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { getSid } from '../../../lib/storage';

/** The series of a study with their thumbnail paths, for the Summary tab. */
export const studyThumbnailsQuery = (uuid: string) =>
  queryOptions({
    queryKey: ['study', 'thumbnails', uuid],
    queryFn: ({ signal }) => api.get('study/thumbnails', { uuid }, { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** An img src for a thumbnail path: img tags send no Authorization header, so the sid goes in the query. */
export function thumbnailSrc(url: string, size = 128): string {
  const query = new URLSearchParams({ sid: getSid() ?? '', viewport: `${size},${size}` });
  return `${url}?${query.toString()}`;
}

/**
 * A video src for a series' `video_url`: video tags send no Authorization header either, so the sid
 * goes in the query (the server redacts it from its logs). The server answers byte ranges.
 */
export function videoSrc(url: string): string {
  return `${url}?${new URLSearchParams({ sid: getSid() ?? '' }).toString()}`;
}
