import { useState } from 'react';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { videoSrc } from '../api/study-thumbnails';

interface Props {
  /** The series' `video_url`; null closes the dialog. */
  url: string | null;
  title: string;
  onClose: () => void;
}

/**
 * Plays a video series (an MP4 wrapped into DICOM) in the browser's own player. The server streams
 * the stored MP4 with byte ranges, so seeking loads only what is shown.
 */
export function VideoPlayerDialog({ url, title, onClose }: Props) {
  const { t } = useTranslation();
  // The URL that failed, not a flag: the dialog stays mounted from one video to the next.
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const failed = url !== null && failedUrl === url;
  return (
    <Dialog open={url !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {failed && (
          <Alert severity="error" sx={{ mb: 1 }}>
            {t('This video cannot be played in the browser.')}
          </Alert>
        )}
        {url !== null && (
          <Box
            component="video"
            key={url}
            src={videoSrc(url)}
            controls
            preload="metadata"
            aria-label={title}
            onError={() => setFailedUrl(url)}
            sx={{ display: 'block', width: '100%', maxHeight: '70vh', bgcolor: 'common.black' }}
          />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Close')}</Button>
      </DialogActions>
    </Dialog>
  );
}
