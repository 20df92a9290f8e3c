import { useNavigate } from 'react-router';
import { Button } from '@mui/material';
import CloudUpload from '@mui/icons-material/CloudUpload';
import { useTranslation } from 'react-i18next';

/**
 * Goes to the upload wizard. While an upload runs it will show the progress bar (uploaded of total
 * MB) and do nothing when clicked; that mode arrives with the upload feature.
 */
export function UploadButton() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Button variant="contained" startIcon={<CloudUpload />} onClick={() => void navigate('/study/upload')}>
      {t('Upload exams')}
    </Button>
  );
}
