import { Box, Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatDicomDate, formatPatientName } from '../../../lib/format';

/** The details panel for a multi-selection: what is selected, ready for the bulk actions. */
export function MultiSelectPanel({ studies, onClear }: { studies: Study[]; onClear: () => void }) {
  const { t } = useTranslation();
  return (
    <Box
      component="aside"
      aria-label={t('Selected exams')}
      sx={{
        width: 460,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        p: 2,
        overflowY: 'auto',
      }}
    >
      <Typography variant="h6" component="h2">
        {t('{{count}} exams selected', { count: studies.length })}
      </Typography>
      <List dense>
        {studies.map((s) => (
          <ListItem key={s.uuid} disableGutters>
            <ListItemText
              primary={formatPatientName(s.patient_name)}
              secondary={`${s.modality} · ${formatDicomDate(s.study_date)}`}
            />
          </ListItem>
        ))}
      </List>
      <Button onClick={onClear}>{t('Clear selection')}</Button>
    </Box>
  );
}
