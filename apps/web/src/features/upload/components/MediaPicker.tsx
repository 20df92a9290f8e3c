import { useState, type ChangeEvent, type DragEvent } from 'react';
import { Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { filesFromDrop } from '../lib/drop-files';
import type { PickedFile } from '../lib/media-scan';
import { pickedFiles } from '../lib/scan-files';

interface Props {
  /** Files read so far while a scan runs; null when none runs. */
  progress: { done: number; total: number } | null;
  disabled?: boolean;
  onPicked: (picked: PickedFile[]) => void;
  /** A drop whose folders the browser would not list. */
  onUnreadable: () => void;
}

/**
 * Where media is chosen: a drop zone for files, folders, ZIPs and CD folders, and pickers for
 * files and for a folder (webkitdirectory), with the scan's progress under it. Used by the upload
 * wizard and the public request-link page.
 */
export function MediaPicker({ progress, disabled = false, onPicked, onUnreadable }: Props) {
  const { t } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const busy = disabled || progress !== null;

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = pickedFiles([...(event.target.files ?? [])]);
    // Picking the same folder again must fire change again.
    event.target.value = '';
    onPicked(files);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (disabled) return;
    filesFromDrop(event.dataTransfer).then(onPicked, onUnreadable);
  };

  return (
    <Stack spacing={2}>
      <Box
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={drop}
        aria-label={t('Drop DICOM files, folders or ZIP files here')}
        sx={{
          border: 2,
          borderStyle: 'dashed',
          borderColor: dragging ? 'primary.main' : 'divider',
          borderRadius: 1,
          p: 4,
          textAlign: 'center',
        }}
      >
        <Typography color="text.secondary" gutterBottom>
          {t('Drop DICOM files, folders, ZIP files or a CD folder here, or')}
        </Typography>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'center' }}>
          <Button variant="outlined" component="label" disabled={busy}>
            {t('Choose files')}
            <input hidden type="file" multiple aria-label={t('DICOM files')} onChange={pick} />
          </Button>
          <Button variant="outlined" component="label" disabled={busy}>
            {t('Choose folder')}
            <input
              hidden
              type="file"
              multiple
              aria-label={t('DICOM folder')}
              onChange={pick}
              // React has no typed prop for the folder picker attribute.
              ref={(el) => el?.setAttribute('webkitdirectory', '')}
            />
          </Button>
        </Stack>
      </Box>
      {progress && (
        <Stack spacing={0.5}>
          <LinearProgress
            variant="determinate"
            value={progress.total ? (progress.done / progress.total) * 100 : 0}
            aria-label={t('Reading files')}
          />
          <Typography variant="body2" role="status">
            {t('Reading files: {{done}} of {{total}}', progress)}
          </Typography>
        </Stack>
      )}
    </Stack>
  );
}
