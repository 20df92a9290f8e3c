import type { ReactNode } from 'react';
import { Box, Tooltip, Typography } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import Block from '@mui/icons-material/Block';
import ErrorIcon from '@mui/icons-material/Error';
import HowToVote from '@mui/icons-material/HowToVote';
import RunningWithErrors from '@mui/icons-material/RunningWithErrors';
import Schedule from '@mui/icons-material/Schedule';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { timeAgo } from '../lib/time-ago';
import { CUSTOM_FIELDS, customField, studyStatusIcons, type StudyStatusIcon } from '../lib/study-status';

const ICONS: Record<StudyStatusIcon, { label: string; node: ReactNode }> = {
  processed: { label: 'Sent to PACS', node: <CheckCircle fontSize="small" color="success" /> },
  rejected: { label: 'Rejected', node: <Block fontSize="small" color="disabled" /> },
  failed: { label: 'Sending to PACS failed', node: <ErrorIcon fontSize="small" color="error" /> },
  queued: { label: 'Queued for PACS', node: <Schedule fontSize="small" color="info" /> },
  nominated: { label: 'Nominated', node: <HowToVote fontSize="small" color="primary" /> },
  incomplete: {
    label: 'Incomplete: its retrieve stopped part-way',
    node: <RunningWithErrors fontSize="small" color="warning" />,
  },
};

/**
 * Sent / rejected / failed / queued / nominated / incomplete icons, each named for screen readers and
 * in a tooltip; a nomination also shows its time ago.
 */
export function StudyStatusIcons({ study }: { study: Study }) {
  const { t } = useTranslation();
  const icons = studyStatusIcons(study);
  if (icons.length === 0) return null;
  const nominatedAt = customField(study, CUSTOM_FIELDS.nominatedAt);
  return (
    <Box sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
      {icons.map((icon) => (
        <Tooltip key={icon} title={t(ICONS[icon].label)}>
          <Box component="span" role="img" aria-label={t(ICONS[icon].label)} sx={{ display: 'inline-flex' }}>
            {ICONS[icon].node}
          </Box>
        </Tooltip>
      ))}
      {icons.includes('nominated') && nominatedAt && (
        <Typography variant="caption" color="text.secondary">
          {timeAgo(nominatedAt)}
        </Typography>
      )}
    </Box>
  );
}
