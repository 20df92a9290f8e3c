import { useState } from 'react';
import { Box, ToggleButton, ToggleButtonGroup } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useInbox } from '../../../session/inbox-context';
import { NonDicomWizard } from '../wrap/NonDicomWizard';
import { PagePanel } from '../../../components/PagePanel';
import { useUploadRun } from '../upload-runtime';
import { UploadRunPanel } from './UploadRunPanel';
import { UploadWizard } from './UploadWizard';

/** Upload exams wizard; the running or last upload shows above it (the upload outlives this page). */
export function UploadPage() {
  const { t } = useTranslation();
  const run = useUploadRun();
  const { account } = useInbox();
  // The non-DICOM upload is offered when the account's share-code settings enable wrapping.
  const wrapping = account.settings?.enable_dicom_wrapping === '1';
  const [kind, setKind] = useState<'dicom' | 'files'>('dicom');
  return (
    <Box sx={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
      <PagePanel title={t('Upload exams')}>
        {run && <UploadRunPanel run={run} />}
        {run?.status !== 'uploading' && wrapping && (
          <ToggleButtonGroup
            exclusive
            size="small"
            value={kind}
            onChange={(_e, value: 'dicom' | 'files' | null) => value && setKind(value)}
            aria-label={t('Upload type')}
            sx={{ mb: 3 }}
          >
            <ToggleButton value="dicom">{t('DICOM exams')}</ToggleButton>
            <ToggleButton value="files">{t('PDF, image or video files')}</ToggleButton>
          </ToggleButtonGroup>
        )}
        {/* Switching unmounts the other wizard: choosing one kind clears what was picked for the other. */}
        {run?.status !== 'uploading' &&
          (wrapping && kind === 'files' ? <NonDicomWizard /> : <UploadWizard wrapping={wrapping} />)}
      </PagePanel>
    </Box>
  );
}
