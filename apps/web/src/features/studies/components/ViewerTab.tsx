import { useEffect, useRef, useState } from 'react';
import { Box, Button } from '@mui/material';
import Fullscreen from '@mui/icons-material/Fullscreen';
import FullscreenExit from '@mui/icons-material/FullscreenExit';
import { VIEWER_PATH, type Study, type ViewerTokenAnswer } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { viewerHash } from '../../../lib/viewer-hash';
import { useDateDisplay } from '../../../lib/date-preferences';
import { fetchViewerToken } from '../api/viewer-token';
import { viewerMessageHandler } from '../lib/viewer-bridge';

interface Props {
  study: Study;
  /** The viewer posted `close-viewer`: the panel goes back to Summary. */
  onClose: () => void;
}

/**
 * The Viewer tab: the embedded viewer in an iframe at `/viewer/#study/{storage}/{uid}/{phi}`. The
 * viewer gets a short-lived study token by postMessage (the session id never enters its URL).
 */
export function ViewerTab({ study, onClose }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const frame = useRef<HTMLIFrameElement>(null);
  const [fullScreen, setFullScreen] = useState(false);
  const prefetched = useRef<Promise<ViewerTokenAnswer> | null>(null);
  const close = useRef(onClose);
  close.current = onClose;

  useEffect(() => {
    // Ask while the iframe loads, so the viewer's first request is answered at once.
    const token = fetchViewerToken(study.uuid);
    token.catch(() => undefined);
    prefetched.current = token;
    const handler = viewerMessageHandler({
      origin: window.location.origin,
      frame: () => frame.current?.contentWindow ?? null,
      onClose: () => close.current(),
      onTokenRequest: async (reply) => {
        // The prefetched token serves the first request; later ones (after a 401) get a new one.
        const pending = prefetched.current ?? fetchViewerToken(study.uuid);
        prefetched.current = null;
        const answer = await pending;
        reply({ action: 'viewer-token', token: answer.token, expires: answer.expires });
      },
    });
    window.addEventListener('message', handler);
    return () => window.removeEventListener('message', handler);
  }, [study.uuid]);

  // The viewer is its own page: it shows dates in the user's format, which it is told here.
  const src = `${VIEWER_PATH}?date_format=${encodeURIComponent(dates.format)}${viewerHash({
    storageNamespace: study.storage_namespace,
    studyUid: study.study_uid,
    phiNamespace: study.phi_namespace,
  })}`;
  return (
    <Box
      data-testid="viewer-container"
      sx={
        fullScreen
          ? {
              position: 'fixed',
              top: 0,
              left: 0,
              width: '100vw',
              height: '100vh',
              zIndex: (theme) => theme.zIndex.modal,
              bgcolor: 'common.black',
              display: 'flex',
              flexDirection: 'column',
            }
          : { display: 'flex', flexDirection: 'column', height: 520 }
      }
    >
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', bgcolor: 'background.paper' }}>
        <Button
          size="small"
          startIcon={fullScreen ? <FullscreenExit /> : <Fullscreen />}
          onClick={() => setFullScreen((on) => !on)}
        >
          {fullScreen ? t('Exit full screen') : t('Full screen')}
        </Button>
      </Box>
      <Box
        component="iframe"
        ref={frame}
        title={t('Viewer')}
        src={src}
        sx={{ flex: 1, border: 0, width: '100%', bgcolor: 'common.black' }}
      />
    </Box>
  );
}
