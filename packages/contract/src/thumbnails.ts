/** One series of a study as `study/thumbnails` lists it for the Summary tab. */
export interface SeriesThumbnail {
  series_uid: string;
  series_number: number | null;
  description: string;
  modality: string;
  image_count: number;
  /** Path of the series thumbnail (WADO-RS `/thumbnail`, PNG); add `sid` to load it in an img tag. */
  url: string;
}

export interface StudyThumbnailsAnswer {
  status: 'OK';
  thumbnails: SeriesThumbnail[];
}
