import { Box, Button, List, ListItem, ListItemText, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatModalities, formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import type { InboxGroupType } from '../../../session/groups';
import { ExamTabStrip } from './ExamTabStrip';

interface Props {
  studies: Study[];
  groupType: InboxGroupType;
  state: string;
  onClear: () => void;
  /** Studies that left the current list (deleted or restored). */
  onRemoved: (uuids: string[]) => void;
}

/**
 * The details panel for a multi-selection: what is selected and the bulk actions every selected
 * study grants (the tab rules intersect the permissions).
 */
export function MultiSelectPanel({ studies, groupType, state, onClear, onRemoved }: Props) {
  const dates = useDateDisplay();
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
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        overflowY: 'auto',
      }}
    >
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography variant="h6" component="h2">
          {t('{{count}} exams selected', { count: studies.length })}
        </Typography>
        <List dense>
          {studies.map((s) => (
            <ListItem key={s.uuid} disableGutters>
              <ListItemText
                primary={formatPatientName(s.patient_name)}
                secondary={`${formatModalities(s.modality)} · ${dates.day(s.study_date)}`}
              />
            </ListItem>
          ))}
        </List>
        <Button onClick={onClear}>{t('Clear selection')}</Button>
      </Box>
      <ExamTabStrip
        idPrefix="multi"
        groupType={groupType}
        state={state}
        studies={studies}
        onRemoved={onRemoved}
        panelSx={{ p: 2 }}
        empty={
          <Typography sx={{ p: 2 }} color="text.secondary">
            {t('No action is allowed on every selected exam.')}
          </Typography>
        }
      />
    </Box>
  );
}
