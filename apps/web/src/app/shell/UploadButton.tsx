import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { Box, Button, LinearProgress, Typography } from '@mui/material';
import CloudUpload from '@mui/icons-material/CloudUpload';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from '../../lib/i18n';
import { onUploadFinished, uploadDestinations, uploadProgress, useUploadRun } from '../../features/upload';
import { useInbox } from '../../session/inbox-context';

/**
 * Goes to the upload wizard. While an upload runs it shows a progress bar with uploaded of total MB
 * and does nothing when clicked (SPEC.md section 2). A user with no group to upload to gets it
 * disabled, with the reason, rather than a wizard with nowhere to send.
 */
export function UploadButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const run = useUploadRun();
  const { groups } = useInbox();
  const canUpload = uploadDestinations(groups).length > 0;
  // New studies should appear in lists fetched before the upload ended.
  useEffect(
    () => onUploadFinished(() => void queryClient.invalidateQueries({ queryKey: ['study'] })),
    [queryClient],
  );

  if (run?.status === 'uploading') {
    const p = uploadProgress(run.uploadedBytes, run.totalBytes);
    return (
      <Button
        variant="contained"
        aria-label={t('Upload in progress')}
        onClick={() => undefined}
        sx={{ display: 'block', textAlign: 'left', cursor: 'default' }}
      >
        <Typography variant="body2" component="span" sx={{ display: 'block' }}>
          {t('Uploading exams')}
        </Typography>
        <LinearProgress
          variant="determinate"
          value={p.percent}
          color="inherit"
          aria-label={t('Upload progress')}
          sx={{ my: 0.5 }}
        />
        <Box component="span" role="status" sx={{ display: 'block', fontSize: 12 }}>
          {t('{{uploaded}} MB of {{total}} MB ({{percent}}%)', {
            uploaded: p.uploadedMb,
            total: p.totalMb,
            percent: p.percent,
          })}
        </Box>
      </Button>
    );
  }
  if (!canUpload) {
    return (
      <Box>
        <Button
          variant="contained"
          startIcon={<CloudUpload />}
          disabled
          aria-describedby="upload-unavailable"
          fullWidth
          sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
        >
          {t('Upload exams')}
        </Button>
        <Typography
          id="upload-unavailable"
          variant="caption"
          color="text.secondary"
          component="p"
          sx={{ mt: 0.5 }}
        >
          {t('None of your groups takes uploads.')}
        </Typography>
      </Box>
    );
  }
  return (
    <Button
      variant="contained"
      startIcon={<CloudUpload />}
      // French and Spanish labels are longer: in capitals they wrapped in the menu's width.
      sx={{ textTransform: 'none', whiteSpace: 'nowrap' }}
      onClick={() => void navigate('/study/upload')}
    >
      {t('Upload exams')}
    </Button>
  );
}
