import { Alert, Stack } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import type { MediaProblem } from '../lib/media-scan';
import type { FoundStudy } from '../lib/studies';
import { useMediaScan } from '../lib/use-media-scan';
import type { ScanErrorKey } from '../lib/wizard-state';
import { MediaPicker } from './MediaPicker';
import { ScanSummary } from './ScanSummary';

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
  return (
    <Stack spacing={2}>
      <MediaPicker progress={progress} onPicked={(picked) => void load(picked)} onUnreadable={failed} />
      {!scanning && (
        <ScanSummary error={error} problems={problems} studies={studies}>
          {wrapping && documents > 0 && (
            <Alert severity="info">
              {t(
                '{{count}} PDF, image or video files are not DICOM: upload them with "PDF, image or video files" above.',
                { count: documents },
              )}
            </Alert>
          )}
        </ScanSummary>
      )}
    </Stack>
  );
}
