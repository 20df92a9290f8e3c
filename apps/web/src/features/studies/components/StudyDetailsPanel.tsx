import { Box, IconButton, Typography } from '@mui/material';
import Close from '@mui/icons-material/Close';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatPatientName } from '../../../lib/format';
import type { InboxGroupType } from '../../../session/groups';
import { ExamTabStrip } from './ExamTabStrip';

interface Props {
  study: Study;
  groupType: InboxGroupType;
  state: string;
  onClose: () => void;
  /** Studies that left the current list (deleted or restored). */
  onRemoved: (uuids: string[]) => void;
}

/** The info panel of one study. */
export function StudyDetailsPanel({ study, groupType, state, onClose, onRemoved }: Props) {
  const { t } = useTranslation();
  return (
    <Box
      component="aside"
      aria-label={t('Exam details')}
      sx={{
        // A gatekeeper compares an exam with an order side by side: its panel is wider.
        width: groupType === 'GATEKEEPER' ? 560 : 460,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }} noWrap>
          {formatPatientName(study.patient_name)}
        </Typography>
        <IconButton aria-label={t('Close details')} onClick={onClose}>
          <Close />
        </IconButton>
      </Box>
      <ExamTabStrip
        idPrefix="exam"
        groupType={groupType}
        state={state}
        studies={[study]}
        onRemoved={onRemoved}
        panelSx={{ p: 2, overflowY: 'auto', flex: 1 }}
      />
    </Box>
  );
}
