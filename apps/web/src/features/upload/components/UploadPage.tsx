import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';
import { useUploadRun } from '../upload-runtime';
import { UploadRunPanel } from './UploadRunPanel';
import { UploadWizard } from './UploadWizard';

/** Upload exams wizard; the running or last upload shows above it (the upload outlives this page). */
export function UploadPage() {
  const { t } = useTranslation();
  const run = useUploadRun();
  return (
    <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
      <PagePanel title={t('Upload exams')}>
        {run && <UploadRunPanel run={run} />}
        {run?.status !== 'uploading' && <UploadWizard />}
      </PagePanel>
    </Box>
  );
}
