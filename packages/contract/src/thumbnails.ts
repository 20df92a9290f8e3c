/** One series of a study as `study/thumbnails` lists it for the Summary tab. */
export interface SeriesThumbnail {
  series_uid: string;
  series_number: number | null;
  description: string;
  modality: string;
  image_count: number;
  /**
   * Path of the series thumbnail (WADO-RS `/thumbnail`, PNG); add `sid` to load it in an img tag.
   * Null for a series without images (NON_IMAGE_MODALITIES): the page shows a placeholder.
   */
  url: string | null;
  /**
   * For a video series (MPEG-4 in Pixel Data): the WADO-RS `/rendered` path of its first video
   * instance, which answers the MP4 with byte ranges; add `sid` to play it in a video tag. Such a
   * series has no thumbnail (`url` null). Null for every other series.
   */
  video_url: string | null;
}

/**
 * Thumbnail depth (SPEC.md section 9): 8 bits per sample. Thumbnails are drawn windowed into 8-bit
 * greyscale or RGB PNG/JPEG; the `/thumbnail` calls take `depth=8` (the default) and refuse any
 * other depth rather than answer a picture of another depth than asked.
 */
export const THUMBNAIL_DEPTH = 8;

/** Modalities whose instances carry no pixel data: documents, reports, key objects, presentation states. */
export const NON_IMAGE_MODALITIES: readonly string[] = ['DOC', 'SR', 'KO', 'PR'];

export interface StudyThumbnailsAnswer {
  status: 'OK';
  thumbnails: SeriesThumbnail[];
}
