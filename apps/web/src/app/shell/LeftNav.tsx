import { Box } from '@mui/material';
import { GroupAccordion } from './GroupAccordion';
import { UploadButton } from './UploadButton';
import { useTranslation } from '../../lib/i18n';

export function LeftNav() {
  const { t } = useTranslation();
  return (
    <Box
      component="nav"
      aria-label={t('Groups')}
      sx={{
        width: 280,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        overflowY: 'auto',
        bgcolor: 'background.paper',
        p: 1.5,
        display: 'flex',
        flexDirection: 'column',
        gap: 1.5,
      }}
    >
      <UploadButton />
      <GroupAccordion />
    </Box>
  );
}
