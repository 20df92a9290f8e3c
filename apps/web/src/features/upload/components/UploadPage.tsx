import { Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { PagePanel } from '../../../components/PagePanel';

/** Upload exams wizard (Destination, Find Exams, Select Exams, Confirm) arrives with the upload feature. */
export function UploadPage() {
  const { t } = useTranslation();
  return (
    <PagePanel title={t('Upload exams')}>
      <Typography color="text.secondary">{t('Uploading exams is not available yet.')}</Typography>
    </PagePanel>
  );
}
