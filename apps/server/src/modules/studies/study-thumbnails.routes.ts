import { NON_IMAGE_MODALITIES, studyUuidRequest, type SeriesThumbnail } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { VIDEO_TRANSFER_SYNTAXES } from '../../dicom/wrap-video.js';
import { authedRoute } from '../../http/api.js';

/**
 * `study/thumbnails`: the series of a study with the URL of each series thumbnail, for the Summary
 * tab. The images themselves come from WADO-RS `/thumbnail` (rendered on first request, then cached).
 */
export function studyThumbnailRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'study/thumbnails', studyUuidRequest, async ({ caller, input }) => {
    const study = await ctx.services.studyAccess.byUuid(caller, input.uuid);
    const series = await ctx.repos.dicomweb.seriesOfStudy(study.uuid, {});
    const videos = await ctx.repos.dicomweb.firstInstanceBySeries(study.uuid, [...VIDEO_TRANSFER_SYNTAXES]);
    await ctx.services.audit.recordStudyRead(caller, study, 'study/thumbnails', 'THUMBNAIL_VIEW');
    const thumbnails: SeriesThumbnail[] = series.map((s) => {
      const seriesPath = `/dicomweb/studies/${encodeURIComponent(study.study_uid)}/series/${encodeURIComponent(s.series_uid)}`;
      const video = videos.get(s.series_uid);
      return {
        series_uid: s.series_uid,
        series_number: s.series_number,
        description: s.series_description,
        modality: s.modality,
        image_count: s.image_count,
        // A document or report series has nothing to draw, and a video's frames are not decoded
        // here: no URL, rather than one that answers 406.
        url: NON_IMAGE_MODALITIES.includes(s.modality) || video ? null : `${seriesPath}/thumbnail`,
        video_url: video ? `${seriesPath}/instances/${encodeURIComponent(video)}/rendered` : null,
      };
    });
    return { thumbnails };
  });
}
