import { useEffect, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { Alert, Box, Button, LinearProgress, Stack, Typography } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatMegabytes } from '../../../lib/format';
import { filesFromDrop } from '../lib/drop-files';
import type { MediaProblem, PickedFile } from '../lib/media-scan';
import { pickedFiles, scanFiles } from '../lib/scan-files';
import { groupStudies, scanError, type FoundStudy } from '../lib/studies';
import type { ScanErrorKey } from '../lib/wizard-state';
import { MediaProblemList } from './MediaProblemList';

interface Props {
  studies: FoundStudy[];
  error: ScanErrorKey | null;
  problems: MediaProblem[];
  onScanned: (
    files: File[],
    studies: FoundStudy[],
    error: ScanErrorKey | null,
    problems: MediaProblem[],
  ) => void;
}

/**
 * Step 2: pick files, a folder or a ZIP, or drop them (a CD folder with a DICOMDIR too); headers
 * are read in a worker and grouped into studies.
 */
export function FindExamsStep({ studies, error, problems, onScanned }: Props) {
  const { t } = useTranslation();
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [dragging, setDragging] = useState(false);
  const scan = useRef<AbortController | null>(null);
  useEffect(() => () => scan.current?.abort(), []);

  const load = async (picked: PickedFile[]) => {
    scan.current?.abort();
    const controller = new AbortController();
    scan.current = controller;
    setProgress({ done: 0, total: picked.length });
    try {
      const { result, files } = await scanFiles(
        picked,
        (done, total) => setProgress({ done, total }),
        controller.signal,
      );
      const found = groupStudies(result.parsed, (i) => files[i]?.size ?? 0);
      onScanned(files, found, scanError(result, found.length), result.problems);
    } catch (cause) {
      if (controller.signal.aborted) return;
      console.warn('scan failed', cause);
      onScanned([], [], 'uploadCannotLoad', []);
    } finally {
      if (scan.current === controller) setProgress(null);
    }
  };

  const pick = (event: ChangeEvent<HTMLInputElement>) => {
    const files = pickedFiles([...(event.target.files ?? [])]);
    event.target.value = '';
    void load(files);
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    filesFromDrop(event.dataTransfer).then(load, () => onScanned([], [], 'uploadCannotLoad', []));
  };

  const scanning = progress !== null;
  const fileCount = studies.reduce((n, s) => n + s.fileIndexes.length, 0);
  const size = studies.reduce((n, s) => n + s.totalSize, 0);
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
          <Button variant="outlined" component="label" disabled={scanning}>
            {t('Choose files')}
            <input hidden type="file" multiple aria-label={t('DICOM files')} onChange={pick} />
          </Button>
          <Button variant="outlined" component="label" disabled={scanning}>
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
      {scanning && (
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
      {!scanning && error && <Alert severity="error">{t(MESSAGES[error])}</Alert>}
      {!scanning && <MediaProblemList problems={problems} />}
      {!scanning && studies.length > 0 && (
        <Alert severity="success" role="status">
          {t('{{count}} exams found in {{files}} files ({{size}})', {
            count: studies.length,
            files: fileCount,
            size: formatMegabytes(size),
          })}
        </Alert>
      )}
    </Stack>
  );
}
