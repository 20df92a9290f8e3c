import { useState } from 'react';
import { Box, ButtonBase, CircularProgress, Typography } from '@mui/material';
import PlayCircle from '@mui/icons-material/PlayCircle';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { studyThumbnailsQuery, thumbnailSrc } from '../api/study-thumbnails';
import { VideoPlayerDialog } from './VideoPlayerDialog';

/**
 * One thumbnail per series (the middle slice), with its description, modality and image count. A
 * video series gets a play tile that opens the video.
 */
export function SeriesThumbnails({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useQuery(studyThumbnailsQuery(uuid));
  const [playing, setPlaying] = useState<{ url: string; title: string } | null>(null);
  if (isPending) return <CircularProgress size={20} aria-label={t('Loading')} />;
  if (isError) {
    return (
      <Typography variant="body2" color="error">
        {t('Series thumbnails could not be loaded')}
      </Typography>
    );
  }
  if (!data.thumbnails.length) {
    return (
      <Typography variant="body2" color="text.secondary">
        {t('No series')}
      </Typography>
    );
  }
  return (
    <>
      <Box component="ul" sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, listStyle: 'none', m: 0, p: 0 }}>
        {data.thumbnails.map((s) => {
          const label = s.description || `${s.modality} ${s.series_number ?? ''}`.trim();
          const videoUrl = s.video_url;
          return (
            <Box component="li" key={s.series_uid} sx={{ width: 128 }}>
              {videoUrl ? (
                <VideoTile label={label} onPlay={() => setPlaying({ url: videoUrl, title: label })} />
              ) : (
                <Thumbnail url={s.url} label={label} />
              )}
              <Typography variant="caption" component="div" noWrap title={label}>
                {label}
              </Typography>
              <Typography variant="caption" component="div" color="text.secondary">
                {s.modality} · {videoUrl ? t('Video') : t('{{count}} images', { count: s.image_count })}
              </Typography>
            </Box>
          );
        })}
      </Box>
      <VideoPlayerDialog
        url={playing?.url ?? null}
        title={playing?.title ?? ''}
        onClose={() => setPlaying(null)}
      />
    </>
  );
}

const TILE_SX = {
  display: 'block',
  width: 128,
  height: 128,
  bgcolor: 'common.black',
  borderRadius: 0.5,
} as const;

/** The series' image, or a "No preview" tile for a series without images or one that failed to draw. */
function Thumbnail({ url, label }: { url: string | null; label: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  if (url === null || failed) {
    return (
      <Box
        role="img"
        aria-label={t('{{label}}: no preview', { label })}
        sx={{ ...TILE_SX, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
      >
        <Typography variant="caption" sx={{ color: 'grey.400' }}>
          {t('No preview')}
        </Typography>
      </Box>
    );
  }
  return (
    <Box
      component="img"
      src={thumbnailSrc(url)}
      alt={label}
      loading="lazy"
      width={128}
      height={128}
      onError={() => setFailed(true)}
      sx={{ ...TILE_SX, objectFit: 'contain' }}
    />
  );
}

/** A video series: a play button in place of a picture (its frames are not decoded on the server). */
function VideoTile({ label, onPlay }: { label: string; onPlay: () => void }) {
  const { t } = useTranslation();
  return (
    <ButtonBase
      onClick={onPlay}
      aria-label={t('Play video {{label}}', { label })}
      sx={{
        ...TILE_SX,
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        justifyContent: 'center',
      }}
    >
      <PlayCircle sx={{ fontSize: 48, color: 'grey.300' }} />
      <Typography variant="caption" sx={{ color: 'grey.400' }}>
        {t('Video')}
      </Typography>
    </ButtonBase>
  );
}
