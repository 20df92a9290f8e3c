import { Alert, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatMegabytes } from '../../../lib/format';
import type { MediaProblem } from '../lib/media-scan';
import type { FoundStudy } from '../lib/studies';
import { useMediaScan } from '../lib/use-media-scan';
import type { ScanErrorKey } from '../lib/wizard-state';
import { MediaPicker } from './MediaPicker';
import { MediaProblemList } from './MediaProblemList';

interface Props {
  /** Whether PDF, image and video files can be uploaded (the wizard's other kind): then they are pointed there. */
  wrapping?: boolean;
  studies: FoundStudy[];
  error: ScanErrorKey | null;
  problems: MediaProblem[];
  /** PDF, image and video files the scan found (kept by the wizard with the rest of the result). */
  documents: number;
  onScanned: (
    files: File[],
    studies: FoundStudy[],
    error: ScanErrorKey | null,
    problems: MediaProblem[],
    documents: number,
  ) => void;
}

/**
 * Step 2: pick files, a folder or a ZIP, or drop them (a CD folder with a DICOMDIR too); headers
 * are read in a worker and grouped into studies.
 */
export function FindExamsStep({ wrapping = false, studies, error, problems, documents, onScanned }: Props) {
  const { t } = useTranslation();
  // PDFs, images and videos found (loose or in a ZIP) are not DICOM: said, not dropped unseen.
  const { progress, load, failed } = useMediaScan((found) => {
    onScanned(found.files, found.studies, found.error, found.problems, found.documents.length);
  });

  const scanning = progress !== null;
  const fileCount = studies.reduce((n, s) => n + s.fileIndexes.length, 0);
  const size = studies.reduce((n, s) => n + s.totalSize, 0);
  return (
    <Stack spacing={2}>
      <MediaPicker progress={progress} onPicked={(picked) => void load(picked)} onUnreadable={failed} />
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
      {!scanning && wrapping && documents > 0 && (
        <Alert severity="info">
          {t(
            '{{count}} PDF, image or video files are not DICOM: upload them with "PDF, image or video files" above.',
            { count: documents },
          )}
        </Alert>
      )}
    </Stack>
  );
}
